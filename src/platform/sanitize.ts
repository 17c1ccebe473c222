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
 * Chromium keeps an element's `is` value (a customized built-in) even after DOMPurify removes the
 * attribute, and serialises it back. Rebuild such elements as plain ones, in an inert template.
 */
function withoutCustomizedBuiltIns(html: string): string {
  if (!/\sis=/i.test(html)) return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const el of Array.from(template.content.querySelectorAll('*'))) {
    const open = (el.cloneNode(false) as Element).outerHTML;
    if (!/^<[a-z]+[^>]*\sis=/i.test(open)) continue;
    const plain = document.createElement(el.tagName.toLowerCase());
    for (const attr of Array.from(el.attributes)) {
      if (attr.name !== 'is') plain.setAttribute(attr.name, attr.value);
    }
    plain.append(...Array.from(el.childNodes));
    el.replaceWith(plain);
  }
  return template.innerHTML;
}

/** The toast's HTML, safe to put into innerHTML. */
export function sanitizeToastHtml(html: string): string {
  return withoutCustomizedBuiltIns(getPurifier().sanitize(html, CONFIG));
}
