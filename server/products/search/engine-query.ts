import type { SearchCategory } from '../../../shared/api/v2/search-request';
import { normalizeSite } from '../../platform/text';

/** Sites of the `research` category (docs/wire-contract.md §13.1: arXiv, Scholar, PubMed, …). */
const RESEARCH_SITES = [
  'arxiv.org',
  'scholar.google.com',
  'pubmed.ncbi.nlm.nih.gov',
  'ncbi.nlm.nih.gov',
  'semanticscholar.org',
  'researchgate.net',
  'biorxiv.org',
  'medrxiv.org',
  'nature.com',
  'science.org',
  'sciencedirect.com',
  'springer.com',
  'ieee.org',
  'acm.org',
];
const CATEGORY_SITES: Record<Exclude<SearchCategory, 'pdf'>, readonly string[]> = {
  github: ['github.com'],
  research: RESEARCH_SITES,
};

const alternatives = (operators: readonly string[]) =>
  operators.length === 1 ? operators[0]! : `(${operators.join(' OR ')})`;

/**
 * The query as engines and the local index see it: the caller's text, then `site:` alternatives
 * for `includeDomains` and the site categories, `-site:` for `excludeDomains`, and `filetype:pdf`
 * for the pdf category.
 */
export function engineQuery({
  query,
  categories,
  includeDomains = [],
  excludeDomains = [],
}: {
  query: string;
  categories: readonly SearchCategory[];
  includeDomains?: readonly string[] | undefined;
  excludeDomains?: readonly string[] | undefined;
}): string {
  const parts = [query.trim()];
  const sites = [
    ...includeDomains.map(normalizeSite),
    ...categories.flatMap((category) => (category === 'pdf' ? [] : CATEGORY_SITES[category])),
  ];
  if (sites.length > 0) parts.push(alternatives(sites.map((site) => `site:${site}`)));
  parts.push(...excludeDomains.map((site) => `-site:${normalizeSite(site)}`));
  if (categories.includes('pdf')) parts.push('filetype:pdf');
  return parts.join(' ');
}

const onHost = (host: string, site: string) => host === site || host.endsWith(`.${site}`);

/** The category a result belongs to, for its `category` field; undefined when none was asked for or it fits none. */
export function categoryOf(url: string, categories: readonly SearchCategory[]): SearchCategory | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  for (const category of categories) {
    if (category === 'pdf') {
      if (parsed.pathname.toLowerCase().endsWith('.pdf')) return category;
    } else if (CATEGORY_SITES[category].some((site) => onHost(host, site))) return category;
  }
  return undefined;
}
