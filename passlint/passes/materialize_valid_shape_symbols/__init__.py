"""MaterializeValidShapeSymbols over pl kernel sources: dry run (findings + source fixes).

For each device kernel (InCore, AIC, AIV, Spmd), wherever the module defines it, the pass
finds the ``pl.dynamic`` symbols its TensorView valid_shapes read that nothing binds
(VS001), symbols only inside compound entries (VS002), scalar params declared after a use
(VS005), undefined valid_shape names (VS006) and physical shape names pypto's parser cannot
resolve (VS008); at every call of such a kernel it reads the extents the
pass would prepend, reporting disagreeing (VS003) or missing (VS004) arguments; and it
predicts the symbols added to kernels outlined from ``pl.at`` scopes (VS007). The VS001 fix
edits the kernel and its call sites in every workspace file.

Rooms, in the order the data flows: the scope model is ``passlint.analysis.pl`` (front end,
name resolution, workspace index); ``binding`` (which symbols a kernel binds), ``sites``
(its calls and what they pass), ``outlined`` (``pl.at`` scopes), ``findings`` (messages and
fixes) of the rules declared in ``rules``, ``edits`` (the text edits of a fix); ``run`` puts
them together and ``cache`` reuses unchanged kernels' findings; ``dry_run`` holds the entry
points (``check_text``, ``analyze_module``, ``prepare``) and ``model`` what they return.

The package itself imports nothing, so reading the rules does not load the pass.
"""
