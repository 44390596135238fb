/** The action's version, sent in the User-Agent; kept equal to package.json by a test. */
export const VERSION = '1.0.0'

export const USER_AGENT = `mintlify-agent-action/${VERSION}`
