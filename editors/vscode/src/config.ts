// What the extension hands the server: pure functions of the settings, so
// that `npm test` checks them without VS Code.

/** The settings the extension reads (`cufront.*`). */
export interface Settings {
  serverPath: string;
  cudaPath: string;
  compileCommands: string;
}

/** How to start the server: `cufront lsp [--cuda-path P] [--compile-commands F]`. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** Reads the settings with defaults (empty strings mean "unset"). */
export function readSettings(get: (key: string) => unknown): Settings {
  const str = (key: string, dflt: string): string => {
    const v = get(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : dflt;
  };
  return {
    serverPath: str('server.path', 'cufront'),
    cudaPath: str('cudaPath', ''),
    compileCommands: str('compileCommands', ''),
  };
}

/** The server's command line; `${workspaceFolder}` in paths is replaced by `root`. */
export function serverCommand(s: Settings, root: string | undefined): ServerCommand {
  const expand = (p: string) => (root ? p.split('${workspaceFolder}').join(root) : p);
  const args = ['lsp'];
  if (s.cudaPath) {
    args.push('--cuda-path', expand(s.cudaPath));
  }
  if (s.compileCommands) {
    args.push('--compile-commands', expand(s.compileCommands));
  }
  return { command: expand(s.serverPath), args };
}

/** The files the client sends to the server. */
export const documentSelector = [
  { scheme: 'file', language: 'cuda-cpp' },
  { scheme: 'file', pattern: '**/*.{cu,cuh}' },
];

/** Whether a settings change needs the server restarted. */
export function needsRestart(changed: (section: string) => boolean): boolean {
  return ['cufront.server.path', 'cufront.cudaPath', 'cufront.compileCommands'].some(changed);
}
