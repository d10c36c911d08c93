import { storage } from 'wxt/utils/storage';
import { normalizeDomainList } from '../../shared/donation/host-allowed';
import { DEFAULT_DONATION_SETTINGS, DonationSettings } from '../ui/ui-messages';

/** What the owner allows, kept unparsed: storage is an edge, parsed on every read. */
const donationItem = storage.defineItem<unknown>('local:donation', { fallback: null });

export async function readDonationSettings(): Promise<DonationSettings> {
  const parsed = DonationSettings.safeParse(await donationItem.getValue());
  return parsed.success ? parsed.data : DEFAULT_DONATION_SETTINGS;
}

/** Stores the settings with their domains in the one form both ends compare (no `*.`, lower case). */
export async function writeDonationSettings(settings: DonationSettings): Promise<DonationSettings> {
  const stored = DonationSettings.parse({
    ...settings,
    allowedDomains: normalizeDomainList(settings.allowedDomains),
  });
  await donationItem.setValue(stored);
  return stored;
}
