/**
 * Who is asked to review the docs pull request and which labels it gets, less what is there
 * already or was done by an earlier run. Pure but for the `ask` it is given.
 */
import { gitHubError, type PullState } from '../../clients/github/api.js'
import type { DocsReviewers } from '../../given/inputs/names.js'

/** Who to ask for a review, and who is left out and why. */
export interface ReviewPlan {
  readonly users: readonly string[]
  /** Team slugs, as `team_reviewers` takes them. */
  readonly teams: readonly string[]
  /** Teams left out (`org/team`): they belong to another organisation than the repository's. */
  readonly skipped: readonly string[]
}

/**
 * The reviewers to ask: `docs-reviewers` (`author`: the code's author), less anyone asked before
 * or already, and the pull request's own author; a team only of the docs repository's owner.
 */
export function reviewPlan(
  wanted: DocsReviewers,
  /** The code change's author (a pull request's), or authors (the commits a push brought). */
  codeAuthor: string | readonly string[] | undefined,
  pull: Pick<PullState, 'author' | 'reviewers' | 'teams'>,
  docsOwner: string,
  asked: readonly string[]
): ReviewPlan {
  // Anyone asked before, already asked, or the pull request's author is not asked.
  const seen = new Set([...asked, ...pull.reviewers, pull.author ?? ''].map((l) => l.toLowerCase()))
  const logins = [...wanted.users]
  const codeAuthors = typeof codeAuthor === 'string' ? [codeAuthor] : (codeAuthor ?? [])
  if (wanted.author) logins.push(...codeAuthors.filter((login) => !login.endsWith('[bot]')))
  const users = logins.filter((login) => {
    const key = login.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const presentTeams = pull.teams.map((team) => team.toLowerCase())
  const wantedTeams = wanted.teams.filter(
    (team) => !seen.has(`${team.org}/${team.slug}`) && !presentTeams.includes(team.slug)
  )
  const ours = (team: { readonly org: string }) => team.org === docsOwner.toLowerCase()
  return {
    users,
    teams: wantedTeams.filter(ours).map((team) => team.slug),
    skipped: wantedTeams.filter((team) => !ours(team)).map((team) => `${team.org}/${team.slug}`)
  }
}

/** The labels still to add: not on the pull request, and not added before. */
export function labelsToAdd(
  wanted: readonly string[],
  present: readonly string[],
  labeled: readonly string[]
): string[] {
  const known = [...present, ...labeled].map((label) => label.toLowerCase())
  return wanted.filter((label) => !known.includes(label.toLowerCase()))
}

/**
 * Asks for the reviews in one request; when GitHub refuses a name (422), one name at a time, so
 * the others are still asked. Returns the keys to record as asked (refused names included: they
 * are not asked again) and the refused names; any other failure is thrown.
 */
export async function askEach(
  ask: (users: readonly string[], teams: readonly string[]) => Promise<unknown>,
  users: readonly string[],
  teams: readonly string[],
  org: string
): Promise<{ keys: string[]; refused: string[] }> {
  const refusedOnly = (error: unknown) => {
    if (gitHubError(error).kind !== 'invalid') throw error
    return false
  }
  // Refused names are recorded too: they are not asked again.
  const keys = [
    ...users.map((u) => u.toLowerCase()),
    ...teams.map((t) => `${org.toLowerCase()}/${t}`)
  ]
  if (await ask(users, teams).then(() => true, refusedOnly)) return { keys, refused: [] }
  // Refused for some name: one request per name, bounded by docs-reviewers' 15 names.
  const refused: string[] = []
  const each = [
    ...users.map((user) => ({ u: [user], t: [] as string[] })),
    ...teams.map((team) => ({ u: [] as string[], t: [team] }))
  ]
  for (const { u, t } of each) {
    // A single name was the one refused: no need to ask again.
    const ok = each.length > 1 && (await ask(u, t).then(() => true, refusedOnly))
    if (!ok) refused.push(...u, ...t.map((team) => `${org}/${team}`))
  }
  return { keys, refused }
}
