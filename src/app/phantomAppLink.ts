/**
 * On a phone without an injected wallet, the link that opens this page in the Phantom app's
 * browser (where the wallet is injected); null elsewhere. The wallet code that knows it comes
 * with the member services' chunk (./members.ts provides it), so the views that draw the link
 * (Get Ticket, the wallet-missing error, both shown only once payment runs) import no wallet
 * code and the landing page's JS does not carry it; until then, in the pre-render and in tests,
 * there is no link.
 */
let source: () => string | null = () => null;

export const phantomAppLink = (): string | null => source();

/** Called by the member services' wiring with the wallet code's link. */
export function providePhantomAppLink(link: () => string | null): void {
  source = link;
}
