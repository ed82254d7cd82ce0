// The frames the views draw in: a page (its title and one-line hint above its cards, scrolling as
// one), a page listing things of one kind, a titled card, and the card that stands where a list is empty.
import type { ReactNode } from 'react'
import { useStoreWide } from '../state'

export function Page(props: { title: string; hint: string; children: ReactNode }) {
  return (
    <div className="scroll">
      <div className="page">
        <div>
          <h2>{props.title}</h2>
          <div className="hint">{props.hint}</div>
        </div>
        {props.children}
      </div>
    </div>
  )
}

/** A page of things of one kind: the form that makes one, then a card each, or while there are none, how to get one. */
export function ListPage(props: { title: string; hint: string; form: ReactNode; noneYet: string; children: ReactNode[] }) {
  const storeWide = useStoreWide()
  return (
    <Page title={props.title} hint={props.hint}>
      {props.form}
      {props.children.length === 0 && (
        <EmptyCard title={props.noneYet}>
          <div>{storeWide ? 'Create one above, or use “Try the loop” on the timeline.' : 'Create one above.'}</div>
        </EmptyCard>
      )}
      {props.children}
    </Page>
  )
}

/** A card with its title and, beside it, badges or buttons (head); then its body. */
export function Card(props: { title: string; testId?: string; head?: ReactNode; children: ReactNode }) {
  return (
    <div className="card" data-testid={props.testId}>
      <div className="card-head">
        <h3>{props.title}</h3>
        {props.head}
      </div>
      <div className="card-body">{props.children}</div>
    </div>
  )
}

/** What a list is missing (title) and how to get it (children). */
export function EmptyCard(props: { title: string; children: ReactNode }) {
  return (
    <div className="card">
      <div className="empty">
        <h2>{props.title}</h2>
        {props.children}
      </div>
    </div>
  )
}
