import { readAllowedDomains } from '../../ui/allowed-domains-input';
import { DonationSettings } from '../../ui/ui-messages';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const fields = () => ({
  enabled: byId<HTMLInputElement>('donation-enabled'),
  domains: byId<HTMLTextAreaElement>('allowed-domains'),
  domainsError: byId('allowed-domains-error'),
  maxTabs: byId<HTMLInputElement>('max-tabs'),
  allowJavascript: byId<HTMLInputElement>('allow-javascript'),
  askOnChallenges: byId<HTMLInputElement>('ask-on-challenges'),
});

/** Puts the stored settings into the form (not while the person is editing it). */
export function fillDonationForm(settings: DonationSettings): void {
  const form = fields();
  form.enabled.checked = settings.enabled;
  form.domains.value = settings.allowedDomains.join('\n');
  form.maxTabs.value = String(settings.maxTabs);
  form.allowJavascript.checked = settings.allowJavascript;
  form.askOnChallenges.checked = settings.askOnChallenges !== false;
}

/**
 * The settings the form holds, or the problems to show instead. Each problem is put next to its
 * field and the field is marked invalid, so a screen reader reaches it from the field too.
 */
export function readDonationForm(): { settings: DonationSettings } | { problem: string } {
  const form = fields();
  const { domains, invalid } = readAllowedDomains(form.domains.value);
  const domainProblem =
    invalid.length === 0
      ? ''
      : `Not a domain: ${invalid.join(', ')}. Write host names such as example.com, one per line.`;
  form.domainsError.textContent = domainProblem;
  form.domainsError.hidden = domainProblem === '';
  form.domains.setAttribute('aria-invalid', String(domainProblem !== ''));

  const parsed = DonationSettings.safeParse({
    enabled: form.enabled.checked,
    allowedDomains: domains,
    maxTabs: form.maxTabs.valueAsNumber,
    allowJavascript: form.allowJavascript.checked,
    askOnChallenges: form.askOnChallenges.checked,
  });
  const tabsProblem = parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === 'maxTabs');
  form.maxTabs.setAttribute('aria-invalid', String(!tabsProblem));

  if (domainProblem !== '') {
    form.domains.focus();
    return { problem: 'Not saved: some allowed domains are not host names (see above).' };
  }
  if (!parsed.success) {
    form.maxTabs.focus();
    return { problem: 'Maximum tabs must be a whole number from 1 to 16.' };
  }
  return { settings: parsed.data };
}
