/** One domain per line; `#` starts a comment line. */
export function parseDomainList(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
