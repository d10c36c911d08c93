import { RE2JS } from 're2js';
import type { PiiSpan } from './pii-span';
import {
  anchorsOf,
  isWordCharAt,
  type PatternMatch,
  scanPattern,
  scanWindows,
  windowsAround,
} from './pattern-scan';

interface SecretPattern {
  /** Text that every match contains: a page without any of it is not searched. */
  needles: readonly string[];
  pattern: RE2JS;
  /** The group that holds the secret when the match also holds its label; 0 for the whole match. */
  group?: number;
  valid?: (secret: string, match: PatternMatch) => boolean;
  /**
   * Search only around the needles (found in the lower-cased text), this far before and after:
   * for patterns that do not start with a literal, which RE2 cannot skip ahead to.
   */
  around?: { before: number; after: number };
}

/**
 * Well-known credential formats, each with a prefix its issuer chose so that leaked keys can be
 * found (GitHub, Slack, Stripe, Google, AWS, OpenAI, Anthropic, GitLab, npm, Hugging Face,
 * SendGrid), JWTs, PEM/PGP private key blocks, bearer tokens, passwords in URLs, and
 * `password = …` style assignments.
 */
const SECRETS: SecretPattern[] = [
  {
    needles: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    pattern: RE2JS.compile('(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}'),
  },
  {
    needles: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: RE2JS.compile('gh[pousr]_[A-Za-z0-9]{36,255}'),
  },
  { needles: ['github_pat_'], pattern: RE2JS.compile('github_pat_[A-Za-z0-9_]{22,255}') },
  { needles: ['glpat-'], pattern: RE2JS.compile('glpat-[A-Za-z0-9_-]{20,255}') },
  { needles: ['xox'], pattern: RE2JS.compile('xox[abprse]-[A-Za-z0-9-]{10,255}') },
  {
    needles: ['hooks.slack.com'],
    pattern: RE2JS.compile('https://hooks\\.slack\\.com/services/[A-Za-z0-9/]{20,120}'),
  },
  {
    needles: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
    pattern: RE2JS.compile('(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}'),
  },
  { needles: ['whsec_'], pattern: RE2JS.compile('whsec_[A-Za-z0-9+/=]{24,255}') },
  { needles: ['AIza'], pattern: RE2JS.compile('AIza[0-9A-Za-z_-]{35}') },
  { needles: ['sk-ant-'], pattern: RE2JS.compile('sk-ant-[A-Za-z0-9_-]{20,255}') },
  { needles: ['sk-'], pattern: RE2JS.compile('sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,255}') },
  { needles: ['npm_'], pattern: RE2JS.compile('npm_[A-Za-z0-9]{36}') },
  { needles: ['hf_'], pattern: RE2JS.compile('hf_[A-Za-z0-9]{34,64}') },
  { needles: ['SG.'], pattern: RE2JS.compile('SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}') },
  {
    needles: ['eyJ'],
    pattern: RE2JS.compile('eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{10,}'),
    valid: isJwt,
  },
  {
    needles: ['PRIVATE KEY'],
    // Base64 and armour headers hold no `-`: the block ends at its END line.
    pattern: RE2JS.compile(
      '-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[^-]*-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----',
    ),
  },
  {
    needles: ['bearer'],
    pattern: RE2JS.compile('(?i)\\bbearer\\s+([A-Za-z0-9._~+/-]{20,1000}=*)'),
    group: 1,
    around: { before: 1, after: 1_100 },
  },
  {
    needles: ['://'],
    // `https://user:password@host/`: the password only; the user name may be a name, not a secret.
    pattern: RE2JS.compile('[a-z][a-z0-9+.-]{0,15}://[^/\\s:@"\'<>]{1,64}:([^/\\s:@"\'<>]{1,128})@'),
    group: 1,
    around: { before: 20, after: 200 },
  },
  {
    needles: ['pass', 'pwd', 'secret', 'token', 'key'],
    pattern: RE2JS.compile(
      '(?i)\\b[a-z0-9_.-]{0,40}?(?:password|passwd|pwd|passphrase|secret|secret[_-]?key(?:[_-]?base)?|token|auth[_-]?token|access[_-]?token|refresh[_-]?token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret)\\b(["\']?\\s*[:=]\\s*["\']?)([^\\s"\'<>,;&`]{3,199}[^\\s"\'<>,;&`.!?)\\]])',
    ),
    // The value ends before a sentence's full stop or a closing bracket.
    group: 2,
    valid: isAssignedSecret,
    around: { before: 45, after: 300 },
  },
];

/** Values that say there is no secret here: masks, placeholders, templates and booleans. */
const PLACEHOLDER =
  /^(?:\*+|x+|•+|\.+|null|none|nil|true|false|undefined|empty|redacted|changeme|password|secret|string|required|optional)$/i;

/**
 * A value assigned to a secret's name, unless it is a placeholder, a reference or code: a word or
 * an identifier without a digit (`password: "Passwords"` in a page's translations, `token: match`)
 * is far more often code than a secret, which is made, with digits or symbols. `password=x` and
 * quoted values are assignments; `Password: …` may be prose ("Password: at least 8 characters"),
 * so there the value must look made, not written: a digit or a symbol in it, or 20 characters.
 */
function isAssignedSecret(value: string, match: PatternMatch): boolean {
  if (PLACEHOLDER.test(value)) return false;
  // Templates and references (`${DB_PASSWORD}`, `{{ token }}`, `%(pwd)s`, `<your-key>`, `process.env.X`).
  if (/^(?:\$|\{\{|%\(|<|\[)/.test(value) || value.startsWith('process.env')) return false;
  // Code, not a value: `token:!0}`, `password:null}`, `secret:case`, `key=window.SETTINGS.token`.
  if (/[{}()[\]]/.test(value) || value.startsWith('!')) return false;
  if (/^[A-Za-z_$.-]+$/.test(value)) return false;
  const separator = match.group(1)?.text ?? '';
  if (separator.includes('=') || /["']/.test(separator)) return true;
  return value.length >= 20 || /[^A-Za-z]/.test(value);
}

/** A JWT's header is a JSON object naming its algorithm. */
function isJwt(token: string): boolean {
  try {
    const header = JSON.parse(
      Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'),
    ) as unknown;
    return typeof header === 'object' && header !== null && 'alg' in header;
  } catch {
    return false;
  }
}

/** Credentials in `text`; an issuer-prefixed token must stand alone, not be part of a longer word. */
export function detectSecrets(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  let lower: string | undefined;
  for (const { needles, pattern, group = 0, valid, around } of SECRETS) {
    const visit = (match: PatternMatch) => {
      const secret =
        group === 0 ? { start: match.start, end: match.end, text: match.text } : match.group(group);
      if (secret === undefined) return;
      if (group === 0 && (isWordCharAt(text, match.start - 1) || isWordCharAt(text, match.end))) return;
      if (valid !== undefined && !valid(secret.text, match)) return;
      spans.push({ start: secret.start, end: secret.end, entity: 'SECRET' });
    };
    if (around !== undefined) {
      lower ??= text.toLowerCase();
      scanWindows(pattern, text, windowsAround(anchorsOf(lower, needles), text.length, around), visit);
    } else if (needles.some((needle) => text.includes(needle))) {
      scanPattern(pattern, text, visit);
    }
  }
  return spans;
}
