import { BASE_CREDITS } from '../../scrape/admit';

/**
 * The price of a monitor's work is that of the routes it uses, booked by them on the team's
 * ledger: 1 credit per page scraped (5 when the target tracks JSON changes, +4 on a stealth
 * browser), each crawl page as a crawl books it, each search as /v2/search books it (its scraped
 * results at the scrape price). A check books nothing of its own: the judgment (LLM tokens) and
 * the webhooks are free. The estimate on a monitor counts 1 credit per page a check may scrape.
 */
export const MONITOR_PAGE_CREDITS = BASE_CREDITS;
