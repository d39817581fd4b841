// Where the app finds Firestore. The local stack serves /config.json (the
// emulator's address and the project id); a production deployment serves a
// static config.json next to index.html with the Firebase web config.

export interface Config {
  projectId: string;
  /** host:port of the Firestore emulator; absent in production. */
  firestoreEmulator?: string;
  /** the Firebase web config (apiKey, authDomain, …) in production. */
  firebase?: Record<string, string>;
  /** base URL of the HTTP functions; "" = this origin. */
  functionsURL?: string;
}

let config: Promise<Config> | undefined;

export function getConfig(): Promise<Config> {
  config ??= fetch("config.json").then(async (r) => {
    if (!r.ok) throw new Error(`config.json: ${r.status} ${r.statusText}`);
    return (await r.json()) as Config;
  });
  return config;
}
