/**
 * The reader's text of our Markdown, for comparison with the benchmark's plain-text ground truth:
 * image syntax and link targets are left out (their URLs would count as words no reader sees);
 * Markdown punctuation needs no care, as the metric only counts word tokens.
 */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\]\((?:[^()]|\([^)]*\))*\)/g, ']')
    .replace(/<Base64-Image-Removed>/g, ' ');
}
