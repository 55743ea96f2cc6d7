# bsde study: ex2, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 7.848945e-04 3.519402e-03 2.219000e+01 9.102782e+00
256 3.773782e-04 1.757868e-03 3.184014e+01 9.999291e+00
512 1.849054e-04 8.784709e-04 4.518377e+01 1.061637e+01
1024 9.151302e-05 4.391210e-04 6.702628e+01 1.342039e+01
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 8.480705e-06 3.410169e-05 1.097854e+02 1.610730e+01
256 2.139685e-06 8.573263e-06 1.631343e+02 2.547922e+01
512 5.376652e-07 2.149350e-06 4.825203e+02 3.664115e+01
1024 1.347195e-07 5.380757e-07 6.018694e+02 6.260240e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.938187e-07 8.389852e-07 8.034526e+02 5.239207e+01
256 2.431066e-08 1.060368e-07 1.132230e+03 1.006885e+02
512 3.018465e-09 1.332339e-08 1.507000e+03 1.637458e+02
1024 3.769471e-10 1.670927e-09 ? 2.066179e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.112950e-07 4.900292e-07 8.552877e+02 7.197590e+01
256 1.419707e-08 6.289660e-08 1.547697e+03 1.302269e+02
512 1.796151e-09 7.974292e-09 ? 1.567426e+02
1024 2.262999e-10 1.005443e-09 ? ?
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.239371e-07 5.467719e-07 7.117974e+02 7.226426e+01
256 1.599198e-08 7.080683e-08 ? 1.312932e+02
512 2.020169e-09 8.998518e-09 ? 1.838331e+02
1024 2.553402e-10 1.136032e-09 ? ?
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 1.129985e-07 5.135065e-07 7.086897e+02 7.607955e+01
256 1.499603e-08 6.745601e-08 ? 1.364914e+02
512 1.930994e-09 8.636317e-09 ? 1.704231e+02
1024 2.454037e-10 1.094142e-09 ? ?
EOD
set logscale x 2
set xtics (128, 256, 512, 1024)
set xrange [106.667:1228.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex2: error of y_0 against N, K = K_y = K_z"
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
set title "ex2: error of z_0 against N, K = K_y = K_z"
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
set title "ex2: speedup of cuda over serial"
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
set title "ex2: speedup of cuda over omp"
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
