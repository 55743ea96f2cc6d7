# bsde study: ex5, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 2.741123e-03 9.511830e-03 4.683355e+01 4.899616e+00
16 1.162135e-03 4.743594e-03 5.203864e+01 5.984231e+00
32 4.962021e-04 2.362315e-03 6.202913e+01 7.303139e+00
64 2.611680e-04 1.181621e-03 7.728094e+01 1.010954e+01
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 7.358238e-05 6.505332e-05 9.520066e+01 9.209177e+00
16 2.980535e-05 1.673955e-05 1.597657e+02 1.567715e+01
32 3.623020e-06 4.033703e-06 2.638868e+02 3.018767e+01
64 7.744786e-07 9.257378e-07 5.521423e+02 5.111821e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 3.895777e-06 5.854027e-06 3.191085e+02 2.370439e+01
16 7.357159e-07 3.543923e-07 6.012055e+02 5.574490e+01
32 7.706606e-08 6.024835e-08 1.012190e+03 8.890987e+01
64 1.767498e-08 8.707545e-09 ? 1.214916e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 4.112578e-06 4.032870e-06 2.613848e+02 2.567173e+01
16 6.276237e-07 2.341873e-07 6.163026e+02 6.838645e+01
32 4.603957e-08 5.987269e-08 ? 9.987114e+01
64 9.676061e-09 6.494975e-09 ? ?
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 3.428183e-06 3.769579e-06 3.635641e+02 2.650447e+01
16 1.286077e-07 2.027512e-07 6.144221e+02 6.579383e+01
32 3.383881e-08 5.836962e-08 ? 1.001281e+02
64 8.028668e-09 6.123786e-09 ? ?
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 2.764432e-06 3.246644e-06 3.076466e+02 4.212611e+01
16 3.060884e-07 1.927822e-07 6.456770e+02 6.508197e+01
32 6.407388e-08 5.587676e-08 ? 9.745504e+01
64 6.997174e-09 5.907939e-09 ? ?
EOD
set logscale x 2
set xtics (8, 16, 32, 64)
set xrange [6.66667:76.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex5: error of y_0 against N, K = K_y = K_z"
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
set title "ex5: error of z_0 against N, K = K_y = K_z"
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
set title "ex5: speedup of cuda over serial"
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
set title "ex5: speedup of cuda over omp"
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
