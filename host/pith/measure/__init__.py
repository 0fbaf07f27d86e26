"""Measuring and training: how good the pipeline is, and the models it learns.

The datasets and the by-site split (datasets), `pith bench` (bench), the oracle ceilings
(ceiling), the timing run (scale), the other extractors it is compared with (anchors), and
`pith train` / `pith train-blocks` (train, train_blocks). It may import everything but the
entry points (cli, demo, __main__).
"""
