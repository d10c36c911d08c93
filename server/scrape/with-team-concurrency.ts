import type { TeamLimits } from '../platform/teams/team-limits';
import type { Scraper } from './create-scraper';

/** The scraper of single scrapes, holding one of the team's concurrency slots while it runs (429 beyond). */
export function withTeamConcurrency(scraper: Scraper, limits: TeamLimits): Scraper {
  return {
    async scrape(request, context) {
      const release = await limits.admit(context.teamId);
      try {
        return await scraper.scrape(request, context);
      } finally {
        release();
      }
    },
  };
}
