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
32 2.547681e-04 1.150007e-03 5.372468e+00 3.451910e+00
64 1.258001e-04 5.800782e-04 9.068621e+00 4.353252e+00
128 6.205264e-05 2.915531e-04 1.422249e+01 5.515064e+00
256 3.116187e-05 1.459154e-04 2.208375e+01 7.109446e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 1.584264e-06 1.071304e-05 2.368051e+01 4.624045e+00
64 5.406638e-07 2.848267e-06 9.915365e+01 2.408803e+01
128 1.009101e-07 6.817925e-07 1.991547e+02 3.264636e+01
256 1.849237e-08 1.649949e-07 3.479266e+02 5.220254e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 5.187298e-09 4.029622e-08 2.022295e+02 2.118179e+01
64 6.787131e-10 5.446033e-09 4.283137e+02 4.348321e+01
128 9.685319e-11 6.917649e-10 7.433165e+02 9.277126e+01
256 1.057732e-11 8.939693e-11 1.581566e+03 1.214819e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 6.371669e-09 2.748532e-08 2.839291e+02 2.281077e+01
64 5.142162e-10 3.880787e-09 5.952104e+02 4.212883e+01
128 7.768897e-11 4.756444e-10 8.555530e+02 8.230245e+01
256 5.615064e-12 6.210676e-11 ? 1.387696e+02
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 1.644087e-09 2.876317e-08 2.452912e+02 2.239861e+01
64 4.488516e-10 4.123244e-09 5.370456e+02 4.935262e+01
128 4.389200e-11 5.083578e-10 9.114192e+02 9.192810e+01
256 5.054623e-12 6.645706e-11 ? 1.587104e+02
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 2.509925e-09 2.720892e-08 2.409094e+02 2.367430e+01
64 3.552554e-10 3.973907e-09 5.490239e+02 8.049596e+01
128 3.861533e-11 4.930278e-10 1.052896e+03 8.611929e+01
256 5.295320e-12 6.426681e-11 ? 1.653474e+02
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
