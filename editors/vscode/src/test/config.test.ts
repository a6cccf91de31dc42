import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { documentSelector, needsRestart, readSettings, serverCommand } from '../config';

test('defaults start `cufront lsp`', () => {
  const s = readSettings(() => undefined);
  assert.deepEqual(s, { serverPath: 'cufront', cudaPath: '', compileCommands: '' });
  assert.deepEqual(serverCommand(s, '/w'), { command: 'cufront', args: ['lsp'] });
});

test('settings become flags, ${workspaceFolder} is expanded', () => {
  const values: Record<string, string> = {
    'server.path': '${workspaceFolder}/target/release/cufront',
    cudaPath: ' /usr/local/cuda-13.0 ',
    compileCommands: '${workspaceFolder}/build/compile_commands.json',
  };
  const s = readSettings((k) => values[k]);
  assert.deepEqual(serverCommand(s, '/w'), {
    command: '/w/target/release/cufront',
    args: ['lsp', '--cuda-path', '/usr/local/cuda-13.0', '--compile-commands', '/w/build/compile_commands.json'],
  });
});

test('non-string and blank settings fall back to defaults', () => {
  const s = readSettings((k) => (k === 'server.path' ? 42 : '   '));
  assert.equal(s.serverPath, 'cufront');
  assert.equal(s.cudaPath, '');
});

test('CUDA files are selected, and only server settings restart it', () => {
  assert.ok(documentSelector.some((d) => d.language === 'cuda-cpp'));
  assert.ok(documentSelector.some((d) => d.pattern === '**/*.{cu,cuh}'));
  assert.equal(needsRestart((s) => s === 'cufront.cudaPath'), true);
  assert.equal(needsRestart((s) => s === 'editor.fontSize'), false);
});
