import { call } from './api';

/** Fetches the job's results with the key in a header (a plain link would need it in the URL) and saves them. */
export async function downloadJsonl(jobId: string): Promise<void> {
  const response = await call(`/console/api/jobs/${encodeURIComponent(jobId)}/results.jsonl`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${jobId}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
