;;; emacs_probe.el --- loaded after a docs recipe (the user's init file)  -*- lexical-binding: t -*-
;; Opens each file of $PROBE_FILES (comma-separated) as a user would, waits until passlint's
;; diagnostics for it have not changed for two seconds, and writes "file=CODE,CODE" lines to
;; $PROBE_RESULT. $PROBE_CLIENT is eglot or lsp-mode. With $PROBE_COMPLETE (a file), it also
;; asks for completions at that file's end and writes their labels under "completion=": the
;; user's Python server is the only one that completes there.
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
  (with-temp-file (getenv "PROBE_RESULT")
    (insert (string-join (nreverse out) "\n") "\n"))
  (kill-emacs (if failed 1 0)))
