// The rows of the checked tables that do not parse (bad-row.ts), found and repaired in one place:
// `hookloop doctor` lists them, the host names them in the UI's banner, and a repair resets the bad
// field to a default (or removes a rule, which has none) and says exactly what it did.
import type { Database } from 'better-sqlite3'
import { type BadRow, describeBadRow } from './bad-row'
import { createEndpointRowRepairs, endpointRowsSetAside } from './endpoints'
import { createRetentionSetting, retentionSetAside } from './history'
import type { OpenedStore } from './open-store'
import { createRuleRowRepairs, ruleRowsSetAside } from './rules'
import { createSubscriptionRowReads, subscriptionRowsSetAside } from './subscriptions'

export interface RowRepair {
  bad: BadRow
  /** What was done, in words: `reset policy_json to the standard-webhooks retry policy preset`. */
  done: string
}

export interface RowDoctor {
  /** Every row set aside, endpoints, rules, subscriptions, then settings (a row once, with its first bad field). */
  badRows(): BadRow[]
  /** Repairs every bad row until none is left (a row with two bad fields is repaired twice). */
  repairAll(now: number): RowRepair[]
}

export function createRowDoctor(db: Database): RowDoctor {
  const endpoints = createEndpointRowRepairs(db)
  const rules = createRuleRowRepairs(db)
  const subscriptions = createSubscriptionRowReads(db)
  const history = createRetentionSetting(db)
  const badRows = () => [...endpoints.setAside(), ...rules.setAside(), ...subscriptions.setAside(), ...history.setAside()]
  const repair = (bad: BadRow, now: number): string => {
    switch (bad.table) {
      case 'endpoints':
        return endpoints.repair(bad)
      case 'rules':
        return rules.repair(bad)
      case 'subscriptions':
        return subscriptions.repair(bad, now)
      case 'settings':
        return history.repair(bad)
      default: {
        const never: never = bad.table
        return never
      }
    }
  }
  return {
    badRows,
    repairAll(now) {
      const done: RowRepair[] = []
      // Each pass repairs the first bad field of each row; a row's next bad field shows on the next pass.
      for (let pass = 0; pass < 8; pass++) {
        const found = badRows()
        if (found.length === 0) break
        for (const bad of found) done.push({ bad, done: repair(bad, now) })
      }
      return done
    },
  }
}

/**
 * The rows set aside, in RowDoctor's order, on either store engine, awaited: what a host on a
 * team's PostgreSQL (or on a data folder, through its SqlEngine) names in its banner.
 */
export async function readBadRows(store: OpenedStore): Promise<BadRow[]> {
  const found = await Promise.all([endpointRowsSetAside(store.engine, store.secrets), ruleRowsSetAside(store.engine), subscriptionRowsSetAside(store.engine, store.secrets), retentionSetAside(store.engine)])
  return found.flat()
}

/** The banner line for rows set aside: what and where, and the command that repairs them. */
export function badRowsNotice(rows: BadRow[]): string[] {
  return rows.map((bad) => `Set aside: ${describeBadRow(bad)}. The rest works; \`hookloop doctor --repair\` repairs it.`)
}
