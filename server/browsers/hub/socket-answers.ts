import type { WebSocket } from 'ws';

/**
 * Whether a hub socket still has a browser behind it: it is pinged and asked (`ask`, an application
 * heartbeat), and answers within `timeoutMs` with a pong or any message. False when it closes or
 * stays silent. A browser's network stack answers pings even while its worker is busy, and closes
 * the socket when the worker that owns it is gone, so a socket that answers has its browser.
 */
export function socketAnswers(
  socket: WebSocket,
  { timeoutMs, ask }: { timeoutMs: number; ask(): void },
): Promise<boolean> {
  if (socket.readyState !== socket.OPEN) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (answers: boolean) => {
      clearTimeout(timer);
      socket.off('pong', answered);
      socket.off('message', answered);
      socket.off('close', closed);
      resolve(answers);
    };
    const answered = () => settle(true);
    const closed = () => settle(false);
    const timer = setTimeout(closed, timeoutMs);
    socket.on('pong', answered);
    socket.on('message', answered);
    socket.on('close', closed);
    try {
      socket.ping();
    } catch {
      // Closing already: its close event settles this.
    }
    ask();
  });
}
