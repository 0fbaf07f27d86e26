"""The block stage: inside the element a method chose, keep the blocks that are content.

segment (what a block is: a block-level row and the text it owns), features (one row of
signals per block: the methods' verdicts, place, names, text, layout), keep (the block
model read from ../models/blocks.json and the keep/add decision), expected (the element
of highest expected F1 under the model's probabilities). It may import the pipeline's
own bottom (snapshot, features, options, tags, families) and its methods (algorithms/),
never render, reader or select, which import it: the stage runs inside select.
"""
