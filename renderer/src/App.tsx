export function App() {
  return (
    <main>
      <h1>Hookloop</h1>
      <p>Send, receive, break and replay webhooks.</p>
    </main>
  )
}
