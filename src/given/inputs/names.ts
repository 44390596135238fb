/**
 * The inputs that name things on GitHub (`docs-reviewers`, `docs-labels`, `agent-accounts`): each
 * a list, one a line or comma-separated, held to GitHub's own rules for the names. Pure.
 */
import { forLog, hasControlCharacters } from '../../base/sanitize.js'
import { refuse, textInput } from './parse.js'

/** `docs-reviewers`: logins, teams (`org/team`, by slug), and whether the code's author is one. */
export interface DocsReviewers {
  readonly users: readonly string[]
  readonly teams: readonly { readonly org: string; readonly slug: string }[]
  readonly author: boolean
}

// Most reviewers, labels and accounts accepted, which bounds the requests made for them.
const MAX_DOCS_REVIEWERS = 15
const MAX_DOCS_LABELS = 20
const MAX_AGENT_ACCOUNTS = 20

function listItems(text: string): string[] {
  return text
    .split(/[\r\n,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** A GitHub login or organisation: letters, digits and single inner hyphens, 39 at most. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/
const TEAM_SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/

/** Logins (`octocat`, `@octocat`), teams (`org/team`, `@org/team`) and `author`; each once. */
export const reviewersInput = textInput((text) => {
  const users: string[] = []
  const teams: { org: string; slug: string }[] = []
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
      return refuse(
        `"${forLog(item, 60)}" is not a GitHub login, an org/team name or author ` +
          '(give them one a line or comma-separated)'
      )
    }
  }
  if (users.length + teams.length + (author ? 1 : 0) > MAX_DOCS_REVIEWERS) {
    return refuse(`names more than ${MAX_DOCS_REVIEWERS} reviewers`)
  }
  const reviewers: DocsReviewers = { users, teams, author }
  return reviewers
})

/** Label names: at most 50 characters each, as GitHub allows; each once. */
export const labelsInput = textInput((text) => {
  const labels: string[] = []
  for (const label of listItems(text)) {
    if (label.length > 50 || hasControlCharacters(label)) {
      return refuse(
        `label "${forLog(label, 60)}" is longer than 50 characters or has control characters`
      )
    }
    if (!labels.some((l) => l.toLowerCase() === label.toLowerCase())) labels.push(label)
  }
  if (labels.length > MAX_DOCS_LABELS) return refuse(`names more than ${MAX_DOCS_LABELS} labels`)
  return labels
})

/** The account Mintlify's agent opens pull requests as, unless an organisation chose a person. */
export const AGENT_ACCOUNT = 'mintlify[bot]'

/**
 * `agent-accounts`: the logins whose pull requests and commits are the agent's own work, in lower
 * case, each once. They add to `AGENT_ACCOUNT`, always first: naming a person must not make the
 * agent's own pull requests start jobs. A value that names no account is a mistake.
 */
export const agentAccountsInput = textInput((text) => {
  const named = listItems(text)
  if (named.length === 0) {
    return refuse(
      `names no account; give logins one a line or comma-separated (${AGENT_ACCOUNT} is ` +
        'always included), or leave the input out'
    )
  }
  const accounts = [AGENT_ACCOUNT]
  for (const name of named) {
    const login = name.replace(/^@/, '')
    if (!LOGIN.test(login.replace(/\[bot\]$/i, ''))) {
      return refuse(
        `"${forLog(name, 60)}" is not a GitHub login (such as ${AGENT_ACCOUNT} or octocat)`
      )
    }
    if (!accounts.includes(login.toLowerCase())) accounts.push(login.toLowerCase())
  }
  if (accounts.length - 1 > MAX_AGENT_ACCOUNTS) {
    return refuse(`names more than ${MAX_AGENT_ACCOUNTS} accounts besides ${AGENT_ACCOUNT}`)
  }
  return accounts
})
