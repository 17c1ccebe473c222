import createDOMPurify, { type Config } from 'dompurify';

/**
 * The toast message is HTML (§2). Only a tight allow-list survives: b, i, em, strong, br, span,
 * and a with an https: or mailto: href. Every surviving link opens in a new tab with
 * rel="noopener noreferrer". Everything else (scripts, handlers, styles, SVG, MathML, forms,
 * javascript: and data: URLs) is removed by DOMPurify.
 */
const ALLOWED_TAGS = ['b', 'i', 'em', 'strong', 'a', 'br', 'span'];
const ALLOWED_ATTR = ['href'];
const SAFE_HREF = /^(?:https:|mailto:)/i;

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: SAFE_HREF,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
};

type Purifier = ReturnType<typeof createDOMPurify>;

let purifier: Purifier | null = null;

function getPurifier(): Purifier {
  if (purifier) return purifier;
  // A private instance, so these hooks never affect another DOMPurify user.
  const instance = createDOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    // DOMPurify keeps a few attributes beyond ALLOWED_ATTR (e.g. `is`); the allow-list is strict.
    for (const attr of Array.from(node.attributes ?? [])) {
      if (!(node.nodeName === 'A' && attr.name === 'href')) node.removeAttribute(attr.name);
    }
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_HREF.test(href.trim())) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  purifier = instance;
  return instance;
}

/**
 * The toast's HTML, safe to put into innerHTML. Sanitised as a DOM fragment: Chromium keeps an
 * element's `is` value even after the attribute is removed (and serialises it back), so DOMPurify
 * drops such customized built-in elements only when it returns DOM.
 */
export function sanitizeToastHtml(html: string): string {
  const fragment = getPurifier().sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  const holder = document.createElement('div');
  holder.appendChild(fragment);
  return holder.innerHTML;
}
