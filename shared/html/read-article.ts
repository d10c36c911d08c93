import { Readability } from '@mozilla/readability';

export interface ReadArticle {
  /**
   * The article as Readability rebuilt it: an element outside any document, in a copy of the page.
   * Readability's own serialization is skipped: the caller measures the article first and writes it
   * out only when it takes it.
   */
  content: Element;
  title: string | undefined;
}

/**
 * Mozilla Readability over a copy of `document`: Readability rewrites the tree it is given, and the
 * caller still needs the original when it decides against the article. linkedom documents have no
 * base URI, which Readability reads as "leave relative URLs alone"; they are made absolute later,
 * like everything else. Undefined when Readability finds no article.
 */
export function readArticle(document: Document): ReadArticle | undefined {
  const copy = document.cloneNode(true) as Document;
  try {
    // charThreshold: Readability retries with looser rules below 500 characters; short articles count.
    const article = new Readability<Element>(copy, {
      charThreshold: 300,
      keepClasses: true,
      serializer: (node) => node as Element,
    }).parse();
    const content = article?.content;
    if (!content || writesNothing(content)) return undefined;
    return { content, title: article?.title ?? undefined };
  } catch {
    // Readability walks arbitrary DOMs; a page it cannot read falls back to the blocklist.
    return undefined;
  }
}

/** An article whose HTML would be "" (no nodes, or only empty text) is no article. */
function writesNothing(element: Element): boolean {
  return Array.from(element.childNodes).every(
    (node) => node.nodeType === TEXT_NODE && node.textContent === '',
  );
}

const TEXT_NODE = 3;
