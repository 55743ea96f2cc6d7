# bsde study: bs-call, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 2.547681e-04 1.150007e-03 7.447801e+00 3.469214e+00
64 1.258001e-04 5.800782e-04 1.214110e+01 4.676499e+00
128 6.205264e-05 2.915531e-04 1.941198e+01 5.090910e+00
256 3.116187e-05 1.459154e-04 3.135743e+01 5.817208e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 1.583189e-06 1.068379e-05 1.185543e+02 2.290163e+01
64 5.404804e-07 2.843219e-06 2.185376e+02 3.605274e+01
128 1.008770e-07 6.808709e-07 3.063760e+02 4.089712e+01
256 1.848705e-08 1.648391e-07 3.125001e+02 5.485022e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 5.094499e-09 4.476030e-08 5.083948e+02 4.760503e+01
64 6.871881e-10 5.694384e-09 8.016263e+02 8.088137e+01
128 1.002078e-10 6.863718e-10 1.266954e+03 1.075282e+02
256 1.119727e-11 8.552448e-11 ? 1.476305e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 6.654326e-09 2.193127e-08 6.010032e+02 5.605941e+01
64 5.542349e-10 3.269779e-09 9.010106e+02 8.204156e+01
128 7.692602e-11 4.919940e-10 ? 1.266010e+02
256 5.807799e-12 6.120970e-11 ? 1.568552e+02
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 1.434239e-09 3.583020e-08 7.444935e+02 6.768518e+01
64 4.458727e-10 4.726500e-09 1.032190e+03 9.872024e+01
128 4.797407e-11 5.024177e-10 ? 1.433197e+02
256 5.565326e-12 6.428635e-11 ? 1.819720e+02
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 2.721754e-09 2.658507e-08 1.197341e+03 7.726667e+01
64 3.867680e-10 3.709960e-09 1.476768e+03 9.726371e+01
128 3.977263e-11 4.949232e-10 ? 1.473860e+02
256 5.768719e-12 6.325429e-11 ? 1.860275e+02
EOD
set logscale x 2
set xtics (32, 64, 128, 256)
set xrange [26.6667:307.2]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "bs-call: error of y_0 against N, K = K_y = K_z"
set ylabel "|y_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "z_error.png"
set title "bs-call: error of z_0 against N, K = K_y = K_z"
set ylabel "|z_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_serial.png"
set title "bs-call: speedup of cuda over serial"
set ylabel "speedup (serial time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_omp.png"
set title "bs-call: speedup of cuda over omp"
set ylabel "speedup (omp time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"
unset output
