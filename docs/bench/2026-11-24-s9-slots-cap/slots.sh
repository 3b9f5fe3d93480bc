#!/bin/bash
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD/lib; out=$1; mkdir -p $out
timeout 150 ./fluid bench --sim --solvers dfsph --particles 27648,109744 --csv $out/sim.csv > $out/sim.txt 2>&1; echo "sim rc $?"
timeout 150 ./fluid bench --sim --solvers dfsph --particles 432000,986078 --seconds 0.5 --csv $out/sim-large.csv > $out/sim-large.txt 2>&1; echo "large rc $?"
timeout 60 ./fluid --headless --frames 60 > $out/run.txt 2>&1; echo "run rc $?"
timeout 60 ./tests/test_sim_frames > $out/test_sim_frames.log 2>&1; echo "test_sim_frames rc $?"
timeout 90 bash ./tests/test_frames.sh $PWD/fluid > $out/test_frames.log 2>&1; echo "test_frames rc $?"
cut -d, -f1-7,15,16 $out/sim.csv $out/sim-large.csv; grep -ho "worst frame[^|]*" $out/sim.txt $out/sim-large.txt; sed -n 3,6p $out/run.txt
