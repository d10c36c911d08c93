const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  a: 1,
  an: 1,
  single: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
  dozen: 12,
  couple: 2,
};

/** A number as prompts write it: digits (`1,000`, `2.5`, `10k`) or English words (`two`, `a hundred`, `fifty`). */
export const NUMBER =
  '(\\d[\\d,]*(?:\\.\\d+)?k?|(?:a |one |two |five |a few )?(?:zero|one|single|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen|couple)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand))?)';

/** The value of a NUMBER match; undefined when it is not one. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  const digits = /^(\d[\d,]*(?:\.\d+)?)(k?)$/.exec(trimmed);
  if (digits !== null) {
    const value = Number(digits[1]!.replace(/,/g, ''));
    return Number.isFinite(value) ? value * (digits[2] === 'k' ? 1000 : 1) : undefined;
  }
  let total = 0;
  let current = 0;
  for (const word of trimmed.split(/[\s-]+/)) {
    if (word === 'few') return undefined;
    const value = UNITS[word];
    if (value === undefined) return undefined;
    if (value === 100 || value === 1000) {
      current = (current === 0 ? 1 : current) * value;
      if (value === 1000) {
        total += current;
        current = 0;
      }
    } else current += value;
  }
  return total + current;
}
