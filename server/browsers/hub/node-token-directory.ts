import { createHash, randomBytes } from 'node:crypto';
import type { BrowserNodeTokenStore } from '../../platform/store';

/** Node tokens carry this prefix, so the hub knows where to look one up (and people know what it is). */
export const NODE_TOKEN_PREFIX = 'tbn_';

export const isNodeToken = (token: string) => token.startsWith(NODE_TOKEN_PREFIX);
export const nodeTokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');
export const newNodeToken = () => `${NODE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const newNodeTokenId = () => `node_${randomBytes(6).toString('hex')}`;

/** What the hub needs to know of browser node tokens; the store answers it. */
export interface NodeTokenDirectory {
  /** The token's id and scope, revoked or not; undefined for unknown tokens. */
  find(token: string): Promise<{ tokenId: string; teamId: string | null; revoked: boolean } | undefined>;
  /** Which of these tokens were revoked meanwhile, through this instance or another. */
  revokedAmong(tokenIds: readonly string[]): Promise<string[]>;
  /** Records that a browser connected with the token. */
  seen(tokenId: string): Promise<void>;
}

export function createNodeTokenDirectory(tokens: BrowserNodeTokenStore): NodeTokenDirectory {
  return {
    async find(token) {
      const found = await tokens.findByDigest(nodeTokenDigest(token));
      return found === undefined
        ? undefined
        : { tokenId: found._id, teamId: found.teamId, revoked: found.revokedAt !== undefined };
    },
    revokedAmong: (tokenIds) => tokens.revokedAmong(tokenIds),
    seen: (tokenId) => tokens.touch(tokenId),
  };
}
