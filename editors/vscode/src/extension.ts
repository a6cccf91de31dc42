// The VS Code side of cufront: starts `cufront lsp` for CUDA files and
// restarts it when its settings change.
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { documentSelector, needsRestart, readSettings, serverCommand } from './config';

let client: LanguageClient | undefined;

async function start(context: vscode.ExtensionContext): Promise<void> {
  const settings = readSettings((k) => vscode.workspace.getConfiguration('cufront').get(k));
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const cmd = serverCommand(settings, root);
  const serverOptions: ServerOptions = {
    run: { command: cmd.command, args: cmd.args, transport: TransportKind.stdio },
    debug: { command: cmd.command, args: cmd.args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    initializationOptions: { cudaPath: settings.cudaPath, compileCommands: settings.compileCommands },
    outputChannelName: 'cufront',
  };
  client = new LanguageClient('cufront', 'cufront', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    void vscode.window.showErrorMessage(`cufront: cannot start \`${cmd.command} ${cmd.args.join(' ')}\`: ${e}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await start(context);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (needsRestart((s) => e.affectsConfiguration(s))) {
        await client?.stop();
        await start(context);
      }
    }),
    vscode.commands.registerCommand('cufront.restartServer', async () => {
      await client?.stop();
      await start(context);
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
