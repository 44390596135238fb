/**
 * The inputs that name things on GitHub: the docs pull request's reviewers (logins and teams,
 * `docs-reviewers`) and labels (`docs-labels`), and the agent's accounts (`agent-accounts`). Each
 * a list, one a line or comma-separated, checked against GitHub's own rules for the names. Pure,
 * as `parse.ts` is.
 */
import { z } from 'zod'
import { forLog, hasControlCharacters } from '../sanitize.js'

/** A team as `docs-reviewers` names it: `org/team`, the team by its slug. */
export interface TeamName {
  readonly org: string
  readonly slug: string
}

/** `docs-reviewers`: logins, teams, and whether the code pull request's author is one. */
export interface DocsReviewers {
  readonly users: readonly string[]
  readonly teams: readonly TeamName[]
  /** The special value `author`: the code pull request's author. */
  readonly author: boolean
}

/** Most reviewers and labels accepted, which bounds the requests made for them. */
export const MAX_DOCS_REVIEWERS = 15
export const MAX_DOCS_LABELS = 20

/** Items of a list input: one a line or comma-separated, trimmed, blanks left out. */
function listItems(text: string): string[] {
  return text
    .split(/[\r\n,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** A GitHub login or organisation: letters, digits and single inner hyphens, 39 at most. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/
const TEAM_SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/

/**
 * Logins (`octocat`, `@octocat`), teams (`org/team`, `@org/team`, sent as the team's slug) and
 * `author`, one a line or comma-separated; a name given twice counts once.
 */
export const reviewersInput = z.string().transform((text, ctx): DocsReviewers => {
  const users: string[] = []
  const teams: TeamName[] = []
  let author = false
  for (const item of listItems(text)) {
    const name = item.replace(/^@/, '')
    const [org = '', slug, ...more] = name.split('/')
    if (name.toLowerCase() === 'author') {
      author = true
    } else if (slug === undefined && LOGIN.test(name)) {
      if (!users.some((u) => u.toLowerCase() === name.toLowerCase())) users.push(name)
    } else if (slug !== undefined && more.length === 0 && LOGIN.test(org) && TEAM_SLUG.test(slug)) {
      const team = { org: org.toLowerCase(), slug: slug.toLowerCase() }
      if (!teams.some((t) => t.org === team.org && t.slug === team.slug)) teams.push(team)
    } else {
      ctx.addIssue({
        code: 'custom',
        message:
          `"${forLog(item, 60)}" is not a GitHub login, an org/team name or author ` +
          '(give them one a line or comma-separated)'
      })
      return z.NEVER
    }
  }
  if (users.length + teams.length + (author ? 1 : 0) > MAX_DOCS_REVIEWERS) {
    ctx.addIssue({ code: 'custom', message: `names more than ${MAX_DOCS_REVIEWERS} reviewers` })
    return z.NEVER
  }
  return { users, teams, author }
})

/** Label names, one a line or comma-separated: at most 50 characters each, as GitHub allows. */
export const labelsInput = z.string().transform((text, ctx) => {
  const labels: string[] = []
  for (const label of listItems(text)) {
    if (label.length > 50 || hasControlCharacters(label)) {
      ctx.addIssue({
        code: 'custom',
        message: `label "${forLog(label, 60)}" is longer than 50 characters or has control characters`
      })
      return z.NEVER
    }
    if (!labels.some((l) => l.toLowerCase() === label.toLowerCase())) labels.push(label)
  }
  if (labels.length > MAX_DOCS_LABELS) {
    ctx.addIssue({ code: 'custom', message: `names more than ${MAX_DOCS_LABELS} labels` })
    return z.NEVER
  }
  return labels
})

/** The account Mintlify's agent opens its pull requests as, unless an organisation chose a person. */
export const AGENT_ACCOUNT = 'mintlify[bot]'

/** Most accounts `agent-accounts` may name besides `AGENT_ACCOUNT`. */
export const MAX_AGENT_ACCOUNTS = 20

/**
 * `agent-accounts`: the logins whose pull requests and commits are the agent's own work, one a
 * line or comma-separated; a GitHub App's account ends in `[bot]`. They add to `AGENT_ACCOUNT`,
 * which is always first: naming a person must not make the agent's own pull requests start jobs.
 * Lower case, each once. A value that names no account at all (only commas or spaces) is a
 * mistake, not a way to leave the input out.
 */
export const agentAccountsInput = z.string().transform((text, ctx) => {
  const named = listItems(text)
  if (named.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message:
        `names no account; give logins one a line or comma-separated (${AGENT_ACCOUNT} is ` +
        'always included), or leave the input out'
    })
    return z.NEVER
  }
  const accounts = [AGENT_ACCOUNT]
  for (const name of named) {
    const login = name.replace(/^@/, '')
    if (!LOGIN.test(login.replace(/\[bot\]$/i, ''))) {
      ctx.addIssue({
        code: 'custom',
        message: `"${forLog(name, 60)}" is not a GitHub login (such as ${AGENT_ACCOUNT} or octocat)`
      })
      return z.NEVER
    }
    if (!accounts.includes(login.toLowerCase())) accounts.push(login.toLowerCase())
  }
  if (accounts.length - 1 > MAX_AGENT_ACCOUNTS) {
    ctx.addIssue({
      code: 'custom',
      message: `names more than ${MAX_AGENT_ACCOUNTS} accounts besides ${AGENT_ACCOUNT}`
    })
    return z.NEVER
  }
  return accounts
})
