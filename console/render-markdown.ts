import { marked } from 'marked';

const DROPPED =
  'script,style,iframe,frame,object,embed,form,input,button,textarea,select,link,meta,base,svg,math';
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href'];

/**
 * A scraped page's Markdown as HTML that is safe to show here: the page's own markup (which
 * Markdown lets through) loses scripts, frames, forms, event handlers and script URLs. The CSP
 * would block scripts anyway; this keeps the page from restyling or faking the console too.
 */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const element of doc.body.querySelectorAll(DROPPED)) element.remove();
  for (const element of doc.body.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.trim().toLowerCase();
      const scriptUrl = value.startsWith('javascript:') || value.startsWith('vbscript:');
      const dataUrl = value.startsWith('data:') && !(name === 'src' && value.startsWith('data:image/'));
      if (
        name.startsWith('on') ||
        name === 'style' ||
        (URL_ATTRIBUTES.includes(name) && (scriptUrl || dataUrl))
      )
        element.removeAttribute(attribute.name);
    }
    if (element.tagName === 'A') {
      element.setAttribute('rel', 'noopener noreferrer');
      element.setAttribute('target', '_blank');
    }
  }
  return doc.body.innerHTML;
}
