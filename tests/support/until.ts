/**
 * Polls `ok` every 10 ms until it holds or `ms` have passed; tells whether it held (the caller
 * asserts what it waited for).
 */
export async function until(ok: () => boolean, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return ok();
}
