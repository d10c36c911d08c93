import { z } from 'zod';

/**
 * What a named browser profile (the v2 scrape option `profile`) keeps between scrapes: the
 * cookie jar and the localStorage of the origins its pages ended on. The server stores it per
 * team and name; a task carries it to a launched browser, which loads it before the page and,
 * when the scrape saves changes, reads it back after the capture.
 */

/** Chromium's own limit is 180 cookies per domain and about 3 300 in all. */
export const MAX_PROFILE_COOKIES = 3_000;
/** Origins whose localStorage a profile keeps. */
export const MAX_PROFILE_ORIGINS = 200;
/** Keys per origin. */
export const MAX_PROFILE_STORAGE_ITEMS = 5_000;
/**
 * A whole profile, as JSON characters: a login is a few cookies and tokens, so this leaves room
 * for many sites while keeping every stored document and every task message small.
 */
export const MAX_PROFILE_STATE_CHARS = 1024 * 1024;

/** A cookie with the attributes chrome.cookies reads and writes. */
export const ProfileCookie = z.object({
  name: z.string().max(4096),
  value: z.string().max(4096),
  /** `example.com` for a host-only cookie, `.example.com` for a domain cookie. */
  domain: z.string().min(1).max(255),
  path: z.string().max(1024),
  /** Set without a Domain attribute: sent to exactly `domain`. */
  hostOnly: z.boolean(),
  secure: z.boolean(),
  httpOnly: z.boolean(),
  sameSite: z.enum(['no_restriction', 'lax', 'strict', 'unspecified']),
  /** Seconds since the epoch; absent for a session cookie, which the profile keeps all the same. */
  expirationDate: z.number().optional(),
});
export type ProfileCookie = z.infer<typeof ProfileCookie>;

/** One origin's localStorage, in the order the browser listed it. */
export const ProfileOriginStorage = z.object({
  origin: z.string().min(1).max(2048),
  items: z.array(z.object({ key: z.string(), value: z.string() })).max(MAX_PROFILE_STORAGE_ITEMS),
});
export type ProfileOriginStorage = z.infer<typeof ProfileOriginStorage>;

export const BrowserProfileState = z.object({
  cookies: z.array(ProfileCookie).max(MAX_PROFILE_COOKIES),
  localStorage: z.array(ProfileOriginStorage).max(MAX_PROFILE_ORIGINS),
});
export type BrowserProfileState = z.infer<typeof BrowserProfileState>;

export const EMPTY_PROFILE_STATE: BrowserProfileState = { cookies: [], localStorage: [] };

/** What a profile scrape's task carries: the state to load, and whether to read it back. */
export const TaskProfile = z.object({
  state: BrowserProfileState,
  /** The caller's `saveChanges`: the capture then brings the profile's state as the task left it. */
  readBack: z.boolean(),
});
export type TaskProfile = z.infer<typeof TaskProfile>;

/** The size a state is measured by against MAX_PROFILE_STATE_CHARS. */
export const profileStateChars = (state: BrowserProfileState) => JSON.stringify(state).length;
