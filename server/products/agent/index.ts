/** The agent and deep research: a model that searches, maps and scrapes until it can answer. */
export { createAgentService } from './create-agent-service';
export type { AgentService } from './create-agent-service';
