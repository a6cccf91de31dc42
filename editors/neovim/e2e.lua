-- End-to-end check of `cufront lsp` with neovim (0.7+) as the client.
-- Environment: CUFRONT (the binary), CUDA_PATH (a CUDA installation),
-- WORKSPACE (a folder with compile_commands.json), FILE (a .cu file in it),
-- HOVER_LINE/HOVER_COL and DEF_LINE/DEF_COL (0-based, UTF-16), OUT (where
-- the results go, one `key<TAB>value` per line).
local out = assert(io.open(vim.env.OUT, 'w'))
local function put(k, v) out:write(k .. '\t' .. tostring(v):gsub('\n', '\\n') .. '\n') end

local client = vim.lsp.start_client({
  name = 'cufront',
  cmd = { vim.env.CUFRONT, 'lsp', '--cuda-path', vim.env.CUDA_PATH },
  root_dir = vim.env.WORKSPACE,
})
put('client', client ~= nil)
vim.cmd('edit ' .. vim.env.FILE)
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client)

local ok = vim.wait(120000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
put('diagnostics_received', ok)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  put('diagnostic', string.format('%d:%d %s %s', d.lnum + 1, d.col + 1, tostring(d.code), d.message))
end

local function at(line, col)
  return { textDocument = vim.lsp.util.make_text_document_params(buf), position = { line = tonumber(line), character = tonumber(col) } }
end
local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', at(vim.env.HOVER_LINE, vim.env.HOVER_COL), 60000)
for _, r in pairs(hover or {}) do
  if r.result and r.result.contents then put('hover', r.result.contents.value) end
  if r.err then put('hover_error', r.err.message) end
end
local def = vim.lsp.buf_request_sync(buf, 'textDocument/definition', at(vim.env.DEF_LINE, vim.env.DEF_COL), 60000)
for _, r in pairs(def or {}) do
  for _, loc in ipairs(r.result or {}) do
    put('definition', string.format('%s:%d:%d', vim.uri_to_fname(loc.uri), loc.range.start.line + 1, loc.range.start.character + 1))
  end
end
out:close()
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client) end, 50)
vim.cmd('qa!')
