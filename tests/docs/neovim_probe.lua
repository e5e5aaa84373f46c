-- Loaded after a docs recipe (the user's init.lua): open each file of $PROBE_FILES (comma-
-- separated) as a user would, wait for passlint's diagnostics, and write "file=CODE,CODE"
-- lines to $PROBE_RESULT. Works from Neovim 0.7 on.
local out = assert(io.open(vim.env.PROBE_RESULT, "w"))
local failed = false
for path in string.gmatch(vim.env.PROBE_FILES, "[^,]+") do
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local ok = vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  -- The server may publish again once it has the editor's settings: wait until the
  -- diagnostics have not changed for two seconds.
  local last, since = vim.inspect(vim.diagnostic.get(bufnr)), vim.loop.now()
  vim.wait(20000, function()
    local now = vim.inspect(vim.diagnostic.get(bufnr))
    if now ~= last then last, since = now, vim.loop.now() end
    return vim.loop.now() - since > 2000
  end, 100)
  local codes = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    if diagnostic.source == "passlint" then table.insert(codes, diagnostic.code) end
  end
  table.sort(codes)
  out:write(path .. "=" .. table.concat(codes, ",") .. "\n")
  if not ok then failed = true end
end
out:write("filetype=" .. vim.bo.filetype .. "\n")
out:close()
for _, client in pairs(vim.lsp.get_active_clients()) do client.stop() end
vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd(failed and "cquit!" or "qa!")
