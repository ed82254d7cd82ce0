// A signing secret typed, pasted or generated in the scheme's own format, with Copy: the only
// place the full secret is shown (after the subscription is made, only its hint is).
import { freshSecret, secretFormatOf } from '../../../shared/secrets'
import type { SchemeId } from '../../../shared/signatures'
import { toast } from '../state'

const FORMAT_WORDS = { whsec: 'whsec_ + base64', hex: 'hex', 'ecdsa-p256': 'an ECDSA P-256 private key, base64 PKCS#8; your app holds its public key', ed25519: 'an Ed25519 private key, whsk_ + base64; your app holds its public key' } as const

export function SecretField({ scheme, value, onChange, problem }: { scheme: SchemeId; value: string; onChange: (secret: string) => void; problem: string | undefined }) {
  const format = FORMAT_WORDS[secretFormatOf(scheme)]
  const keyPair = secretFormatOf(scheme) === 'ed25519' || secretFormatOf(scheme) === 'ecdsa-p256'
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => toast('ok', keyPair ? 'Private key copied: Hookloop signs with it; your app takes the public key the card shows' : 'Secret copied: paste it into your app’s settings before you create the subscription'),
      () => toast('error', 'Copy: the browser refused the clipboard; select the secret and copy it by hand'),
    )
  }
  return (
    <label className="field" style={{ gridColumn: '1 / -1' }}>
      Signing secret
      <span className="row" style={{ gap: 4, flexWrap: 'nowrap' }}>
        <input
          className={`input mono${problem ? ' invalid' : ''}`}
          style={{ flex: 1 }}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={`paste your app’s secret, or Generate (${format}); empty: Hookloop makes one`}
          spellCheck={false}
          autoComplete="off"
          data-testid="subscription-secret"
        />
        <button type="button" className="btn" onClick={() => onChange(freshSecret(scheme))} title={`A new random secret (${format}), the kind ${scheme} hands out`} data-testid="generate-secret">
          Generate
        </button>
        <button type="button" className="btn" disabled={value === ''} onClick={copy} data-testid="copy-secret">
          Copy
        </button>
      </span>
      {problem ? (
        <span className="error-text" data-testid="secret-problem">
          {problem}
        </span>
      ) : (
        <span className="hint">
          Shown here until the subscription is created; after that only its hint.
          {keyPair ? ' This is the private key Hookloop signs with; the card then shows the public key your app verifies with.' : ''}
        </span>
      )}
    </label>
  )
}
