// Every GraphQL query the action sends, checked against GitHub's published schema
// (`@octokit/graphql-schema`): a field GitHub does not have, or one asked of an interface that
// lacks it (`databaseId` of an `Actor`), would otherwise only show on GitHub itself, since the
// fake GitHub answers whatever it is asked.
import { describe, expect, it } from '@jest/globals'
import { validate } from '@octokit/graphql-schema'
import { readFileSync } from 'node:fs'
import { GRAPHQL_QUERIES } from '../src/clients/github/schemas.js'

const messages = (query: string) => validate(query).map((error) => error.message)

describe('the GraphQL queries the action sends', () => {
  it.each(Object.entries(GRAPHQL_QUERIES))(
    '%s is valid against GitHub’s schema',
    (_name, query) => {
      expect(messages(query)).toEqual([])
    }
  )

  it('are every GraphQL request the client makes, each sent by its exported name', () => {
    // A query written inline at a call, rather than one of GRAPHQL_QUERIES, fails here.
    const source = readFileSync(new URL('../src/clients/github/client.ts', import.meta.url), 'utf8')
    const sent = [...source.matchAll(/octokit\.graphql\(\s*([^,)\s]+)/g)].map((m) => m[1] ?? '')
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.filter((query) => !/(^|\.)GRAPHQL_QUERIES\.\w+$/.test(query))).toEqual([])
    const names = sent.map((query) => query.split('.').at(-1))
    expect(new Set(names)).toEqual(new Set(Object.keys(GRAPHQL_QUERIES)))
  })

  it('catches what GitHub would refuse: an id asked of an Actor, which has none', () => {
    const wrong = GRAPHQL_QUERIES.history.replace(
      /creator \{[\s\S]*?\n {16}\}/,
      'creator { login databaseId }'
    )
    expect(wrong).not.toBe(GRAPHQL_QUERIES.history)
    expect(messages(wrong)).toEqual([
      'Cannot query field "databaseId" on type "Actor". Did you mean to use an inline fragment on "Bot", "Mannequin", "Organization", or "User"?'
    ])
  })

  it('asks the id of every kind of account that has one, with its kind', () => {
    // Without these, an App's account (a `Bot`, spelled without `[bot]`) could not be told by id.
    for (const type of ['Bot', 'User', 'Mannequin', 'Organization']) {
      expect(GRAPHQL_QUERIES.history).toMatch(new RegExp(`\\.\\.\\. on ${type} \\{ databaseId \\}`))
    }
    expect(GRAPHQL_QUERIES.history).toMatch(/creator \{\s*__typename/)
    expect(GRAPHQL_QUERIES.viewer).toMatch(/viewer \{ login databaseId \}/)
    expect(GRAPHQL_QUERIES.history).toMatch(/viewer \{ login databaseId \}/)
    expect(GRAPHQL_QUERIES.history).toMatch(/pageInfo \{ hasNextPage endCursor \}/)
  })
})
