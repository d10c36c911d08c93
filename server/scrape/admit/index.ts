/**
 * Admit: what a scrape must pass before it spends anything: selectors, URL policy, the team's slot,
 * the credit reservation and the job pages' browser slots.
 */
export { admissionRules } from './admission-rules';
export type { AdmissionRules, ScrapeSource } from './admission-rules';
export { admitScrape } from './admit-scrape';
export { HTTP_PAGES_IN_FLIGHT, createBrowserSlots } from './browser-slots';
export type { BrowserSlots } from './browser-slots';
export { checkSelectors } from './check-selectors';
export { checkUrl } from './check-url';
export { donatedRouteOf } from './donated-route';
export type { UrlCheckPlan } from './check-url';
export { jobPageTasks } from './job-page-tasks';
export { BASE_CREDITS, extractsJson, scrapeCredits } from './scrape-credits';
