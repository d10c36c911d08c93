import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { repairLikeBrowser } from '../../../server/scrape/derive/fetched-page/repair-like-browser';

describe('repairLikeBrowser', () => {
  it('moves what follows </body> and </html> into the body, as a browser parser does', () => {
    const document = parseHtml('<html><head></head><body><p>a</p>\n</body>\n</html>\n');
    repairLikeBrowser(document);
    expect(document.body.innerHTML).toBe('<p>a</p>\n\n\n');
  });

  it('puts rows written straight into a table into an implied tbody, leaving thead alone', () => {
    const document = parseHtml(
      '<table>\n <thead><tr><th>h</th></tr></thead>\n <tr><td>1</td></tr>\n <tr><td>2</td></tr>\n</table>',
    );
    repairLikeBrowser(document);
    expect(document.body.innerHTML).toBe(
      '<table>\n <thead><tr><th>h</th></tr></thead>\n <tbody><tr><td>1</td></tr>\n <tr><td>2</td></tr>\n</tbody></table>',
    );
  });
});
