import { useEffect } from 'react';
import { SESSION_MESSAGES } from '../../../contract/messages';
import { retryPage, showPageStandIn } from './chunkRetry';
import './chunkRetry.css';

/**
 * Stand-in for a page whose code could not load (the server is down, the connection dropped):
 * what happened and one thing to do, Retry: the page comes back once the server answers, until
 * then the notice says so again (the corner notice steps aside while this one shows).
 */
export function ChunkFailed() {
  useEffect(() => showPageStandIn(), []);
  return (
    <main className="chunk-failed">
      <div className="chunk-failed__card" role="alert">
        <h1 className="chunk-failed__title">This page could not load</h1>
        <p>{SESSION_MESSAGES.connect}</p>
        <button type="button" className="btn btn-primary" onClick={() => void retryPage()}>
          Retry
        </button>
      </div>
    </main>
  );
}
