;;; emacs_probe.el --- loaded after a docs recipe (the user's init file)  -*- lexical-binding: t -*-
;; Opens each file of $PROBE_FILES (comma-separated) as a user would, waits until passlint's
;; diagnostics for it have not changed for two seconds, and writes "file=CODE,CODE" lines to
;; $PROBE_RESULT. $PROBE_CLIENT is eglot or lsp-mode. With $PROBE_COMPLETE (a file), it also
;; asks for completions at that file's end and writes their labels under "completion=": the
;; user's Python server is the only one that completes there. Then, as a user would:
;; - $PROBE_FIX_ALL ("FILE:COMMAND"): M-x COMMAND (the recipe's fix-all) in FILE, then save it;
;;   writes "fix_all_menus=" (how many menus it showed) and "fixed=" (the codes after it);
;; - $PROBE_TYPED ("FILE:LINE:TEXT|TEXT..."): for each TEXT, a new line below LINE (1-based)
;;   with TEXT typed, then `completion-at-point' (C-M-i); writes "typed TEXT=" and the line
;;   it leaves (the new line is removed again);
;; - $PROBE_HOVER ("FILE:LINE:COLUMN,..."; line 1-based, column 0-based): the hover there as
;;   eldoc shows it, newlines written as " | ", under "hover FILE:LINE:COLUMN=".
(require 'cl-lib)
(require 'subr-x)

(defvar probe--diagnostics (make-hash-table :test 'equal)
  "File name -> the codes of passlint's last published diagnostics.")
(defvar probe--changed 0 "When a publication last changed `probe--diagnostics'.")

(defun probe--record (path diagnostics get)
  (let ((codes (sort (delq nil (mapcar (lambda (d)
                                         (and (equal (funcall get d "source") "passlint")
                                              (funcall get d "code")))
                                       diagnostics))
                     #'string<)))
    (unless (equal codes (gethash (file-truename path) probe--diagnostics 'none))
      (puthash (file-truename path) codes probe--diagnostics)
      (setq probe--changed (float-time)))))

(pcase (getenv "PROBE_CLIENT")
  ("eglot"
   (require 'eglot)
   (advice-add 'eglot-handle-notification :before
               (lambda (_server method &rest params)
                 (when (eq method 'textDocument/publishDiagnostics)
                   (probe--record (eglot--uri-to-path (plist-get params :uri))
                                  (append (plist-get params :diagnostics) nil)
                                  (lambda (d key) (plist-get d (intern (concat ":" key)))))))))
  ("lsp-mode"
   (require 'lsp-mode)
   (setq lsp-auto-guess-root t lsp-enable-file-watchers nil lsp-restart 'ignore
         lsp-session-file (expand-file-name "lsp-session" temporary-file-directory))
   (advice-add 'lsp--on-diagnostics :before
               (lambda (workspace params)
                 ;; Each server publishes its own: keep passlint's.
                 (when (eq (lsp--workspace-server-id workspace) 'passlint)
                   (probe--record (lsp--uri-to-path (gethash "uri" params))
                                  (append (gethash "diagnostics" params) nil)
                                  (lambda (d key) (gethash key d))))))))

(defun probe--wait (predicate seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    (funcall predicate)))

(defun probe--complete ()
  "The labels the servers of this buffer complete at its end."
  (goto-char (point-max))
  (let ((items
         (pcase (getenv "PROBE_CLIENT")
           ("eglot"
            (let ((answer (jsonrpc-request (eglot--current-server-or-lose)
                                           :textDocument/completion
                                           (eglot--CompletionParams))))
              (if (vectorp answer) answer (plist-get answer :items))))
           ("lsp-mode"
            (let ((answer (lsp-request "textDocument/completion"
                                       (lsp--text-document-position-params))))
              (if (vectorp answer) answer (gethash "items" answer)))))))
    (mapcar (lambda (item) (if (hash-table-p item) (gethash "label" item)
                             (plist-get item :label)))
            (append items nil))))

(defun probe--fix-all (path command)
  "Call COMMAND in PATH's buffer, counting its menus (answered with nothing), and save the
buffer once passlint has published the diagnostics of its result; how many menus it showed."
  (probe--visit path)
  (let ((menus 0) (tick (buffer-chars-modified-tick)) (published probe--changed))
    (let ((menu (lambda (&rest _) (cl-incf menus) nil)))
      (advice-add 'completing-read :override menu)
      (advice-add 'x-popup-menu :override menu)
      (unwind-protect (call-interactively command)
        (advice-remove 'completing-read menu)
        (advice-remove 'x-popup-menu menu)))
    (probe--wait (lambda () (/= tick (buffer-chars-modified-tick))) 20)
    (when (equal (getenv "PROBE_CLIENT") "eglot")
      ;; eglot sends the edit from an idle timer; batch Emacs is never idle.
      (eglot--signal-textDocument/didChange))
    (probe--wait (lambda () (> probe--changed published)) 30)
    (probe--wait (lambda () (> (- (float-time) probe--changed) 2.0)) 30)
    (save-buffer)
    menus))

(defun probe--type-and-complete (line text)
  "Type TEXT on a new line below LINE, complete it as C-M-i does; the line it leaves."
  (goto-char (point-min))
  (forward-line (1- line))
  (end-of-line)
  (let ((start (point)))
    (insert "\n" text)
    (completion-at-point)
    (prog1 (buffer-substring-no-properties (line-beginning-position) (line-end-position))
      (delete-region start (line-end-position)))))

(defun probe--hover-text ()
  "The hover at point, as eldoc shows it (one line)."
  (let ((text
         (pcase (getenv "PROBE_CLIENT")
           ("eglot"
            (let ((answer (jsonrpc-request (eglot--current-server-or-lose)
                                           :textDocument/hover
                                           (eglot--TextDocumentPositionParams))))
              (and answer (eglot--hover-info (plist-get answer :contents)))))
           ("lsp-mode"
            (let ((answer (lsp-request "textDocument/hover"
                                       (lsp--text-document-position-params))))
              (and answer (lsp--render-on-hover-content (gethash "contents" answer) t)))))))
    (string-join (split-string (substring-no-properties (or text "")) "\n") " | ")))

(defun probe--visit (path)
  "Visit PATH as the command `find-file' would, and end the command (batch Emacs has no
command loop: `eglot-ensure' connects from `post-command-hook')."
  (find-file path)
  (run-hooks 'post-command-hook))

(let ((out nil) (failed nil))
  (dolist (path (split-string (getenv "PROBE_FILES") "," t))
    (probe--visit path)
    (let ((key (file-truename path)))
      (unless (probe--wait (lambda () (not (eq (gethash key probe--diagnostics 'none) 'none)))
                           60)
        (setq failed t))
      (probe--wait (lambda () (> (- (float-time) probe--changed) 2.0)) 30)
      (push (format "%s=%s" path (string-join (gethash key probe--diagnostics) ",")) out)))
  (when-let ((fix-all (getenv "PROBE_FIX_ALL")))
    (pcase-let ((`(,path ,command) (split-string fix-all ":")))
      (push (format "fix_all_menus=%s" (probe--fix-all path (intern command))) out)
      (push (format "fixed=%s" (string-join (gethash (file-truename path) probe--diagnostics) ","))
            out)))
  (when-let ((path (getenv "PROBE_COMPLETE")))
    (probe--visit path)
    (probe--wait (lambda () (pcase (getenv "PROBE_CLIENT")
                              ("eglot" (eglot-current-server))
                              ("lsp-mode" (lsp-workspaces))))
                 60)
    ;; The Python server's first answer can take longer than a multiplexer waits for the
    ;; slowest server (rass: 3 s, then it answers with what came): ask again, as a user would.
    (let ((labels nil) (deadline (+ (float-time) 60)))
      (while (and (null labels) (< (float-time) deadline))
        (setq labels (probe--complete))
        (unless labels (accept-process-output nil 1)))
      (push (format "completion=%s" (string-join labels ",")) out))
    (when (equal (getenv "PROBE_CLIENT") "lsp-mode")
      (push (format "servers=%s"
                    (string-join (sort (mapcar (lambda (w) (symbol-name (lsp--workspace-server-id w)))
                                               (lsp-workspaces))
                                       #'string<)
                                 ","))
            out)))
  (when-let ((typed (getenv "PROBE_TYPED")))
    (pcase-let ((`(,path ,line ,texts) (split-string typed ":")))
      (probe--visit path)
      (dolist (text (split-string texts "|"))
        (push (format "typed %s=%s" text (probe--type-and-complete (string-to-number line) text))
              out))))
  (dolist (where (split-string (or (getenv "PROBE_HOVER") "") "," t))
    (pcase-let ((`(,path ,line ,column) (split-string where ":")))
      (probe--visit path)
      (goto-char (point-min))
      (forward-line (1- (string-to-number line)))
      (forward-char (string-to-number column))
      (push (format "hover %s=%s" where (probe--hover-text)) out)))
  (with-temp-file (getenv "PROBE_RESULT")
    (insert (string-join (nreverse out) "\n") "\n"))
  (kill-emacs (if failed 1 0)))
