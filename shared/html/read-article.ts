import { Readability } from '@mozilla/readability';

export interface ReadArticle {
  /** The article's HTML as Readability rebuilt it. */
  content: string;
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
    const article = new Readability(copy, { charThreshold: 300, keepClasses: true }).parse();
    if (!article?.content) return undefined;
    return { content: article.content, title: article.title ?? undefined };
  } catch {
    // Readability walks arbitrary DOMs; a page it cannot read falls back to the blocklist.
    return undefined;
  }
}
