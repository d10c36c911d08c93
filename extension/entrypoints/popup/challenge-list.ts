import { challengeRequestText, listChallengeRequests, showChallengeTab } from '../../ui/challenge-requests';
import { elementById } from '../../ui/page-elements';

/**
 * The popup's entries for tasks waiting on their person at a challenge page ("A task for <team>
 * needs you on <site>"), each with a button that brings the task's tab forward.
 */
export async function showChallengeRequests(): Promise<void> {
  const section = elementById('challenges');
  const list = elementById<HTMLUListElement>('challenge-list');
  const requests = await listChallengeRequests();
  list.replaceChildren(
    ...requests.map((request) => {
      const item = document.createElement('li');
      const text = document.createElement('p');
      text.textContent = `${challengeRequestText(request)}: ${request.vendor} wants to see that a person is there.`;
      const show = document.createElement('button');
      show.type = 'button';
      show.className = 'primary';
      show.textContent = 'Show the page';
      show.addEventListener('click', () => void showChallengeTab(request).then(() => window.close()));
      item.append(text, show);
      return item;
    }),
  );
  section.hidden = requests.length === 0;
}
