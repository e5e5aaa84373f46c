-- Headless Neovim (0.7+) against `passlint serve`: open a .mlir file with an aliased output,
-- wait for the diagnostic, request and apply its quick fix, write the file, and wait for the
-- diagnostic to go. Writes what happened to $PASSLINT_RESULT as JSON-ish key=value lines.
local path = vim.env.PASSLINT_FILE
local out = assert(io.open(vim.env.PASSLINT_RESULT, "w"))
local function report(key, value)
  out:write(key .. "=" .. tostring(value) .. "\n")
  out:flush()
end
local function finish(code)
  out:close()
  vim.cmd(code == 0 and "qa!" or "cquit!")
end

local client_id = vim.lsp.start_client({
  name = "passlint",
  cmd = { vim.env.PASSLINT_PYTHON, "-m", "passlint", "serve" },
  root_dir = vim.env.PASSLINT_ROOT,
})
vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)

local ok = vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
if not ok then report("error", "no diagnostic") return finish(1) end
local diagnostic = vim.diagnostic.get(bufnr)[1]
report("code", diagnostic.code)
report("source", diagnostic.source)
report("line", diagnostic.lnum)
report("col", diagnostic.col)

local lsp_diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, diagnostic.lnum)
local params = vim.lsp.util.make_range_params()
params.range = lsp_diagnostics[1].range
params.context = { diagnostics = lsp_diagnostics, only = { "quickfix" } }
local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000)
local action
for _, response in pairs(responses or {}) do
  for _, candidate in ipairs(response.result or {}) do action = action or candidate end
end
if not action then report("error", "no code action") return finish(1) end
report("title", action.title)
report("preferred", action.isPreferred)
vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
vim.cmd("write")

ok = vim.wait(20000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50)
report("cleared", ok)
vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
finish(ok and 0 or 1)
