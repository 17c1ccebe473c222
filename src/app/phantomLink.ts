import { phantomBrowseLink } from '../wallet/providers';

/**
 * On a phone without an injected wallet, the link that opens this page in the Phantom app's
 * browser (where the wallet is injected); null elsewhere and while pre-rendering. The views ask
 * here rather than the wallet code itself.
 */
export const phantomAppLink = (): string | null =>
  typeof window === 'undefined' ? null : phantomBrowseLink();
