// Pieces the inspector's panels share: a list of headers, and a body shown pretty / raw / hex.
import { useState } from 'react'
import type { HeaderPair } from '../../../shared/contract'
import { bodyText, hexDump, prettyJson } from '../lib/body'

export function Headers({ title, headers }: { title: string; headers: HeaderPair[] }) {
  if (headers.length === 0) return null
  return (
    <section>
      {title && <div className="section-title">{title}</div>}
      <dl className="kv">
        {headers.map((h, i) => (
          <HeaderLine key={i} header={h} />
        ))}
      </dl>
    </section>
  )
}

function HeaderLine({ header }: { header: HeaderPair }) {
  return (
    <>
      <dt>{header.name}</dt>
      <dd>{header.value}</dd>
    </>
  )
}

type BodyMode = 'pretty' | 'raw' | 'hex'

export function Body({ title, bytes, testId = 'body' }: { title: string; bytes: Uint8Array; testId?: string }) {
  const text = bodyText(bytes)
  const pretty = prettyJson(text)
  const [mode, setMode] = useState<BodyMode>(pretty ? 'pretty' : 'raw')
  const shown = mode === 'hex' ? hexDump(bytes) : mode === 'pretty' ? (pretty ?? text) : text
  return (
    <section>
      <div className="section-title">
        {title}
        <span style={{ flex: 1 }} />
        <span className="segmented">
          {(['pretty', 'raw', 'hex'] as const).map((m) => (
            <button key={m} className={mode === m ? 'active' : ''} onClick={() => setMode(m)} disabled={m === 'pretty' && !pretty}>
              {m}
            </button>
          ))}
        </span>
      </div>
      {bytes.length === 0 ? <div className="hint">empty</div> : <pre className="code" data-testid={testId}>{shown}</pre>}
    </section>
  )
}
