/** An element of an extension page that its HTML declares (the page's own markup, not input). */
export const elementById = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.getElementById(id) as T;

export type MessageTone = 'info' | 'ok' | 'error';

/** Shows a message in a live region; `tone` styles it (ui.css). */
export function showMessage(target: HTMLElement, text: string, tone: MessageTone = 'info'): void {
  target.textContent = text;
  target.dataset.tone = tone;
}
