/** Text tools shared by search and the scrape's formats: tokenizing, query parsing, ranking. */
export { normalizeSite, parseQuery } from './parse-query';
export type { ParsedQuery } from './parse-query';
export { rankPages } from './rank-pages';
export type { RankablePage } from './rank-pages';
export { tokenize } from './tokenize';
