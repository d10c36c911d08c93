/** One URL of a map answer (v2 items; v1 answers the `url` strings only). */
export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}
