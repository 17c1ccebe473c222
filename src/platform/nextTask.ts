/**
 * Resolves in a new task of the event loop, so work split at this point runs as separate short
 * tasks: the browser can paint and answer input between them (fewer long tasks at start-up).
 * A message channel rather than a timer: no clamping, and it runs as soon as the thread is free.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
