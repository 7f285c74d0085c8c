;;; emacs_dap_session.el --- Emacs's dap-mode drives `kwb-run debug --dap'  -*- lexical-binding: t -*-
;;
;; A third-party Debug Adapter Protocol client against the adapter: dap-mode (Debian's
;; elpa-dap-mode) starts `kwb-run debug --dap' through a debug provider and template
;; of its own, on samples/reduction_shared.kwb. The kernel's inline source is written to
;; a file named as the document compiles it (kernel.cu), a breakpoint placed there at
;; the reduction's addition with dap-mode's `dap-breakpoint-add', and the session runs
;; to it, reads the stack and the lanes' variables, steps with `dap-next' and checks the
;; values against the host's arithmetic (block 0 holds 0..255: in the first step lane t
;; adds t and t + 128).
;;
;;   emacs --batch -l tests/dap/emacs_dap_session.el KWB-RUN SAMPLE.kwb
;;
;; Exit status 0 when every check holds; 1 and a FAIL line otherwise.

(package-initialize)
(require 'dap-mode)
(require 'cl-lib)
(require 'json)

(defvar kwb-run (expand-file-name (nth 0 command-line-args-left)))
(defvar kwb-sample (expand-file-name (nth 1 command-line-args-left)))
(setq command-line-args-left nil)

(defvar kwb-folder (make-temp-file "kwb-dap-mode-" t))
(setq dap-breakpoints-file (expand-file-name "breakpoints" kwb-folder)
      dap-print-io (getenv "KWB_DAP_PRINT_IO"))

(defvar kwb-checks 0)

(defun kwb-fail (format-string &rest args)
  (message "FAIL: %s" (apply #'format format-string args))
  (kill-emacs 1))

(defun kwb-check (what ok)
  (if ok
      (cl-incf kwb-checks)
    (kwb-fail "%s" what)))

(defun kwb-wait (what predicate)
  "Read the adapter's messages until PREDICATE holds (at most two minutes)."
  (let ((deadline (+ (float-time) 120)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (kwb-fail "timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

;; The debug provider: the adapter is kwb-run itself, on the launch request's document.
(dap-register-debug-provider
 "kernel-workbench"
 (lambda (conf)
   (plist-put conf :dap-server-path (list kwb-run "debug" "--dap"))
   conf))
(dap-register-debug-template
 "Kernel Workbench: reduction on the simulator"
 (list :type "kernel-workbench" :request "launch" :name "reduction"
       :program kwb-sample :trust t :stopOnEntry :json-false))

;; The kernel's source as the document compiles it, where dap-mode can keep breakpoints.
(let* ((json-object-type 'alist)
       (doc (json-read-file kwb-sample))
       (source (alist-get 'source doc))
       (file (expand-file-name "kernel.cu" kwb-folder)))
  (with-temp-file file (insert source))
  (find-file file))
(goto-char (point-min))
(unless (search-forward "partial[tid] += partial[tid + stride];" nil t)
  (kwb-fail "the reduction's addition is not in the sample"))
(defvar kwb-line (line-number-at-pos))
(dap-breakpoint-add)

(dap-debug (cdr (assoc "Kernel Workbench: reduction on the simulator" dap-debug-template-configurations)))
(defvar kwb-session (dap--cur-session))
(kwb-check "dap-mode started a session" kwb-session)

(defun kwb-frame ()
  (dap--debug-session-active-frame kwb-session))

(defun kwb-stopped-at (what)
  "Wait for the next stop and return its top frame."
  (kwb-wait what #'kwb-frame)
  (kwb-frame))

(defun kwb-variables (reference)
  (gethash "variables" (dap-request kwb-session "variables" :variablesReference reference)))

(defun kwb-scope (frame prefix)
  (let ((scopes (gethash "scopes" (dap-request kwb-session "scopes" :frameId (gethash "id" frame)))))
    (or (cl-find-if (lambda (s) (string-prefix-p prefix (gethash "name" s))) scopes)
        (kwb-fail "no scope %s" prefix))))

;; Continue (configurationDone) to the breakpoint: warp 0 of block 0, at the addition.
(let* ((frame (kwb-stopped-at "the breakpoint"))
       (thread (dap--debug-session-thread-id kwb-session)))
  (kwb-check (format "stopped by the breakpoint, not %s"
                     (gethash thread (dap--debug-session-thread-states kwb-session)))
             (equal (gethash thread (dap--debug-session-thread-states kwb-session)) "breakpoint"))
  (kwb-check "warp 0 is thread 1" (equal thread 1))
  (kwb-check (format "the frame's line %s is the addition's %s" (gethash "line" frame) kwb-line)
             (equal (gethash "line" frame) kwb-line))
  (kwb-check "the frame names the kernel" (string-match-p "block_sum" (gethash "name" frame)))
  (let ((threads (gethash "threads" (dap-request kwb-session "threads"))))
    (kwb-check "256 threads are 8 warps" (= (length threads) 8)))
  ;; The focused lane's variables: lane 0 is thread 0 of block 0.
  (let* ((lane (kwb-scope frame "Lane 0"))
         (vars (kwb-variables (gethash "variablesReference" lane)))
         (tid (cl-find-if (lambda (v) (equal (gethash "name" v) "threadIdx.x")) vars)))
    (kwb-check "threadIdx.x is a variable of lane 0" tid)
    (kwb-check "threadIdx.x is 0" (equal (gethash "value" tid) "0"))))

;; Step over the line: warp 0 has added its pairs. Some float register holds t + 128,
;; and some 2t + 128, in every lane t.
(dap-next kwb-session)
(let* ((frame (kwb-stopped-at "the step"))
       (lanes (kwb-scope frame "Lanes"))
       (partner nil) (sum nil))
  (kwb-check (format "the step went to line %s" (1+ kwb-line)) (equal (gethash "line" frame) (1+ kwb-line)))
  (dolist (v (kwb-variables (gethash "variablesReference" lanes)))
    (when (and (string-prefix-p "%f" (gethash "name" v)) (> (gethash "variablesReference" v) 0))
      (let ((values (mapcar (lambda (l) (string-to-number (gethash "value" l)))
                            (kwb-variables (gethash "variablesReference" v)))))
        (when (= (length values) 32)
          (when (cl-every #'= values (number-sequence 128 159)) (setq partner t))
          (when (cl-every #'= values (number-sequence 128 190 2)) (setq sum t))))))
  (kwb-check "a register holds t + 128 in every lane" partner)
  (kwb-check "a register holds 2t + 128 in every lane" sum)
  ;; An expression for the lane, and the Debug Console's table of the 32 lanes.
  (let ((watch (dap-request kwb-session "evaluate" :expression "threadIdx.x * 2 + 1"
                            :context "watch" :frameId (gethash "id" frame))))
    (kwb-check "threadIdx.x * 2 + 1 is 1 in lane 0" (equal (gethash "result" watch) "1")))
  (let ((table (dap-request kwb-session "evaluate" :expression "lanes threadIdx.x"
                            :context "repl" :frameId (gethash "id" frame))))
    (kwb-check "the console's lanes table lists lane 31" (string-match-p "\n 31 # 31" (gethash "result" table)))))

;; The end: disconnect, and the adapter's process ends.
(let ((proc (dap--debug-session-proc kwb-session)))
  (dap-disconnect kwb-session)
  (kwb-wait "the adapter to exit" (lambda () (not (process-live-p proc))))
  (kwb-check "the adapter exited with 0" (= (process-exit-status proc) 0)))

(delete-directory kwb-folder t)
(message "PASS: %d checks" kwb-checks)
(kill-emacs 0)
