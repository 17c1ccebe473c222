import { userData } from '../../support/signIn/fakes';

/**
 * A fetch fake for the API client: records every request (path, bearer, JSON body) and answers
 * through a handler, so tests count refreshes and retries exactly.
 */
type FakeRequest = {
  path: string;
  method: string;
  bearer: string | null;
  body: Record<string, unknown>;
  query: URLSearchParams;
  form: FormData | null;
};

type FakeAnswer =
  | { status: number; json: unknown }
  | { status: number; text: string; contentType?: string }
  | { networkError: true };

export type FakeHandler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export function createFakeFetch(handler: FakeHandler) {
  const requests: FakeRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const auth = request.headers.get('authorization');
    const type = request.headers.get('content-type') ?? '';
    let body: Record<string, unknown> = {};
    let form: FormData | null = null;
    if (request.method !== 'GET' && type.includes('multipart/form-data')) {
      form = await request.formData();
    } else if (request.method !== 'GET') {
      const text = await request.text();
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    }
    const recorded: FakeRequest = {
      path: url.pathname.replace(/^\/api\//, ''),
      method: request.method,
      bearer: auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : null,
      body,
      query: url.searchParams,
      form,
    };
    requests.push(recorded);
    const answer = await handler(recorded);
    if (request.signal.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    if ('networkError' in answer) throw new TypeError('Failed to fetch');
    if ('json' in answer) {
      return new Response(JSON.stringify(answer.json), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    return new Response(answer.text, {
      status: answer.status,
      headers: { 'Content-Type': answer.contentType ?? 'text/html' },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

export const USER_DATA = userData({
  user_email: 'boss@example.com',
  user_invite_code: 'ABCD1234',
  user_payment_wallet: '11111111111111111111111111111111',
});
